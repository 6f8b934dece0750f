/*
 * pool_memory.c: the pool sampler's hold on each process's memory (see
 * pool.c, "How it reads a worker"): the descriptors of /proc/PID/mem handed
 * over (stat_pool_receive), opened (stat_pool_open) or shared by the
 * places of one process's threads (stat_pool_share), the way each owner
 * is read, by pid with a pidfd or through its descriptor
 * (stat_pool_choose, stat_pool_failed), and whether an owner is gone
 * (stat_pool_gone, stat_pool_sweep).
 *
 * Threads and processes: the pool sampler process only (single-threaded);
 * the places it reads and takes back are in the mapping (places.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "pool.h"
#include "pool_internal.h"
#include "../shared/places.h"
#include "../shared/memory.h"
#include "../shared/atomic.h"
#include "../sampler/frame.h"
#include "../common/task.h"

/* Pool process: forget a place's descriptors (and say so in the place). */
void stat_pool_forget(stat_pool_state *state, int place)
{
	stat_pool_slot *slot = &state->slots[place];

	if (slot->mem >= 0) {
		stat_places_hold(stat_memory->places, place, 0);
	}
	if (slot->mem >= 0) {
		close(slot->mem);
	}
	if (slot->task_status >= 0) {
		close(slot->task_status);
	}
	if (slot->task_schedstat >= 0) {
		close(slot->task_schedstat);
	}
	if (slot->pidfd >= 0) {
		close(slot->pidfd);
	}
	slot->mem = -1;
	slot->task_status = -1;
	slot->task_schedstat = -1;
	slot->pidfd = -1;
	slot->process = 0;
	slot->readv = false;
	slot->chosen = 0;
	slot->task_owner = 0;
	memset(&slot->task_look, 0, sizeof(slot->task_look));
	slot->owner = 0;
	slot->serial = 0;
	slot->opened = 0;
	slot->cpu_owner = 0;
}

/* Pool process: whether `mem` is the /proc/PID/mem of `pid` (what a worker says it sent). */
static bool stat_pool_is_mem(int mem, uint32_t pid)
{
	char link[64], target[64], want[64];
	ssize_t length;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", mem);
	length = readlink(link, target, sizeof(target) - 1);
	if (length <= 0) {
		return false;
	}
	target[length] = '\0';
	snprintf(want, sizeof(want), "/proc/%lu/mem", (unsigned long) pid);
	return strcmp(target, want) == 0;
}

/*
 * Pool process: whether the process of a pidfd has exited (its pidfd polls
 * readable then, reaped or not: until it is reaped its pid is not another
 * process's). A pidfd that cannot be polled counts as exited.
 */
bool stat_pool_exited(int pidfd)
{
	struct pollfd fd = {pidfd, POLLIN, 0};
	int ready;

	do {
		ready = poll(&fd, 1, 0);
	} while (ready < 0 && errno == EINTR);
	return ready != 0;
}

/* Pool process: take every handover waiting (and the wake-ups, which only woke us). */
void stat_pool_receive(stat_pool_state *state, int socket)
{
	for (;;) {
		stat_pool_handover message;
		char control[CMSG_SPACE(sizeof(int))];
		struct iovec iov = {&message, sizeof(message)};
		struct msghdr msg;
		struct cmsghdr *cmsg;
		ssize_t got;
		int mem = -1;
		stat_pool_slot *slot;
		uint64_t process = 0;
		bool chosen;

		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		got = recvmsg(socket, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (got < 0) {
			if (errno == EINTR) {
				continue;
			}
			return;
		}
		for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
			if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS &&
				cmsg->cmsg_len == CMSG_LEN(sizeof(int))) {
				memcpy(&mem, CMSG_DATA(cmsg), sizeof(int));
			}
		}
		/*
		 * (a descriptor that did not fit, MSG_CTRUNC, out of descriptors: not
		 * held, so the worker sends it again; anything else that reaches the
		 * socket, a PHP script writing to it, or one for a place that is no
		 * longer that owner's, is dropped)
		 */
		if (mem < 0) {
			continue;
		}
		if (got != (ssize_t) sizeof(message) || message.magic != STAT_POOL_HANDOVER_MAGIC ||
			message.place < 0 || message.place >= STAT_PLACES_COUNT || (uint32_t) message.owner != message.pid ||
			stat_places_owner(stat_memory->places, message.place) != message.owner ||
			(uint32_t) (process = stat_places_process(stat_memory->places, message.place)) != message.pid ||
			!stat_pool_is_mem(mem, message.pid)) {
			close(mem);
			continue;
		}
		/*
		 * Sent again (a request that began before the place said it was
		 * held): read by pid, its pidfd says whether it is the same process,
		 * which keeps what it has; read through mem, the new descriptor is
		 * taken (the pid could be another process's by now) and read the same
		 * way, not counted again.
		 */
		slot = &state->slots[message.place];
		if (slot->mem >= 0 && slot->owner == message.owner && slot->readv && !stat_pool_exited(slot->pidfd)) {
			close(mem);
			continue;
		}
		chosen = slot->mem >= 0 && slot->owner == message.owner && slot->chosen == message.owner && !slot->readv;
		stat_pool_forget(state, message.place);
		slot->mem = mem;
		slot->owner = message.owner;
		slot->process = process;
		slot->chosen = chosen ? message.owner : 0;
		state->generation++;
		stat_places_hold(stat_memory->places, message.place, message.owner);
	}
}

/*
 * Pool process: the places of a thread-safe PHP's threads share their
 * process's memory. A place whose owner's own handover has not come yet
 * (it is on its way: each thread sends one until its place is held) takes
 * a copy (dup) of the descriptor a slot of the same process word holds. A
 * process word is drawn once a process (places.h): a process that reuses a
 * dead one's pid has another, so a descriptor is never shared with a
 * process it is not of. Looked for again only when a
 * slot took a descriptor since (the state's generation): a place that none
 * serves costs no walk of the slots every tick.
 */
bool stat_pool_share(stat_pool_state *state, int place, const stat_place_view *view)
{
	stat_pool_slot *slot = &state->slots[place];
	int end = stat_places_end(stat_memory->places), i, mem;

	if (!view->process || (slot->shared_generation == state->generation && slot->shared_owner == view->owner)) {
		return false;
	}
	slot->shared_generation = state->generation;
	slot->shared_owner = view->owner;
	for (i = 0; i < end; i++) {
		const stat_pool_slot *other = &state->slots[i];

		if (i == place || other->mem < 0 || other->process != view->process ||
			stat_places_owner(stat_memory->places, i) != other->owner) {
			continue;
		}
		mem = fcntl(other->mem, F_DUPFD_CLOEXEC, 0);
		if (mem < 0) {
			return false;
		}
		stat_pool_forget(state, place);
		slot->mem = mem;
		slot->owner = view->owner;
		slot->process = view->process;
		/* (a copy, not a descriptor of its own: no other slot looks for it) */
		slot->shared_generation = state->generation;
		slot->shared_owner = view->owner;
		stat_places_hold(stat_memory->places, place, view->owner);
		return true;
	}
	return false;
}

/*
 * Pool process: whether the pid of the place's owner is still its process
 * after an open by path. The process may have ended and its pid gone to
 * another before the open: a place left as it was (its owner killed) cannot
 * say so, the pid's start time can (looked at after the open: a pid is
 * never its first process's again). Without a start time, the place decides.
 */
static bool stat_pool_still_owner(int place, const stat_place_view *view)
{
	return stat_places_unchanged(stat_memory->places, place, view) &&
		(!view->start_time || stat_task_start_time((int) (uint32_t) view->owner) == view->start_time);
}

/*
 * Pool process: a descriptor of the place's owner's memory when it was not
 * handed over, opened by the pool sampler itself: it may when it is root
 * (php-fpm's master forks it before it drops to the workers' user, whose
 * workers are then not dumpable and cannot open their own). Tried once an
 * owner. True when the slot now holds one for the view's owner. The first
 * owner it may not open (EACCES, EPERM: no CAP_SYS_PTRACE) is kept in the
 * mapping (pool.refused) for a request thread to say in PHP's log.
 */
bool stat_pool_open(stat_pool_state *state, int place, const stat_place_view *view)
{
	stat_pool_slot *slot = &state->slots[place];
	char path[64];
	int mem;

	if (slot->opened == view->owner) {
		return false;
	}
	slot->opened = view->owner;
	snprintf(path, sizeof(path), "/proc/%lu/mem", (unsigned long) (uint32_t) view->owner);
	mem = open(path, O_RDONLY | O_CLOEXEC);
	if (mem < 0) {
		if ((errno == EACCES || errno == EPERM) && stat_pool_still_owner(place, view)) {
			/* not ours to read: the first such process is said in the log, by a request thread (pool_client.c) */
			uint64_t none = 0;

			stat_atomic_cas(&stat_memory->pool.refused, &none, (uint64_t) (uint32_t) view->owner << 32 | (uint32_t) errno);
		}
		return false;
	}
	if (!stat_pool_still_owner(place, view)) {
		close(mem);
		return false;
	}
	stat_pool_forget(state, place);
	slot->mem = mem;
	slot->owner = view->owner;
	slot->process = view->process;
	slot->opened = view->owner;
	state->generation++;
	stat_places_hold(stat_memory->places, place, view->owner);
	return true;
}

/*
 * Pool process: whether the place's owner is gone for good. Its memory
 * reads nothing (0 bytes: the address space it was opened for is gone, the
 * process exited, unreaped or not, or exec'd), or without a descriptor its
 * pid no longer exists. kill(pid, 0) alone would keep a zombie or an exec'd
 * process (a proc_open() child) as a place to sample every tick.
 */
static bool stat_pool_gone(stat_pool_slot *slot, const stat_place_view *view)
{
	unsigned char byte;
	ssize_t got;

	if (slot->mem >= 0 && slot->owner == view->owner) {
		do {
			got = pread(slot->mem, &byte, 1, (off_t) view->target.globals);
		} while (got < 0 && errno == EINTR);
		if (got == 0 || (got < 0 && errno == ESRCH)) {
			return true;
		}
	}
	return kill((pid_t) (uint32_t) view->owner, 0) != 0 && errno == ESRCH;
}

/*
 * Pool process: how to read the owner of a place whose memory is held,
 * chosen once an owner (at its first active tick, when the place says where
 * its executor is) and counted: processes_readv, or processes_mem.
 *
 * process_vm_readv of its pid copies a sample's pieces in about two calls
 * where pread() of mem takes one a piece (~15), but it needs ptrace rights
 * over the process (the same user and dumpable, or CAP_SYS_PTRACE; Yama
 * may ask more), and a pid is only a number: a process that exited and was
 * reaped leaves it to the next process. So it is chosen only with a pidfd of
 * the owner (pidfd_open, Linux 5.3) and when a read of its executor globals
 * by pid gives what the same read of mem does. The pidfd is of the process
 * mem was opened on: mem read after it was opened (stat_frame_readv_same),
 * which it does only while that process has not exited, and its pid was not
 * free before then. After each sample read by pid, the pidfd says whether
 * the process exited meanwhile (stat_pool_sample). Otherwise, or where
 * pidfd_open is missing (ENOSYS: not asked again), mem.
 */
void stat_pool_choose(stat_pool_state *state, stat_pool_slot *slot, const stat_place_view *view)
{
	pid_t pid = (pid_t) (uint32_t) view->owner;
	bool readv = false;

	if (slot->pidfd >= 0) {
		close(slot->pidfd);
		slot->pidfd = -1;
	}
#ifdef SYS_pidfd_open
	if (!state->no_pidfd) {
		/* (its close-on-exec flag is set) */
		int pidfd = (int) syscall(SYS_pidfd_open, pid, 0);

		if (pidfd < 0 && errno == ENOSYS) {
			state->no_pidfd = true;
		} else if (pidfd >= 0 && stat_frame_readv_same(&view->target, pid, slot->mem) && !stat_pool_exited(pidfd)) {
			slot->pidfd = pidfd;
			readv = true;
		} else if (pidfd >= 0) {
			close(pidfd);
		}
	}
#endif
	slot->chosen = view->owner;
	slot->readv = readv;
	/* (the reader is aimed again, the way chosen) */
	slot->serial = 0;
	stat_atomic_inc(readv ? STAT_COUNTER(processes_readv) : STAT_COUNTER(processes_mem));
}

/*
 * Pool process: after a read of a place failed (its request's sample not
 * taken, counted failed by the reader): a process gone is let go, its place
 * taken back; a process read by pid that process_vm_readv no longer reads
 * as its descriptor does (it changed its user since, or its dumpable flag)
 * is read through its descriptor from then on (counted in processes_mem).
 */
void stat_pool_failed(stat_pool_state *state, int place, const stat_place_view *view)
{
	stat_pool_slot *slot = &state->slots[place];

	if (stat_pool_gone(slot, view)) {
		/* the worker is gone (exited, even unreaped, or exec'd): its place is taken back, its descriptors closed */
		stat_places_reclaim(stat_memory->places, place, view->owner);
		stat_pool_forget(state, place);
	} else if (slot->readv && !stat_frame_readv_same(&view->target, (pid_t) (uint32_t) view->owner, slot->mem)) {
		close(slot->pidfd);
		slot->pidfd = -1;
		slot->readv = false;
		/* (the reader is aimed again, at mem) */
		slot->serial = 0;
		stat_atomic_inc(STAT_COUNTER(processes_mem));
	}
}

/*
 * Pool process, once a second: the places whose owner is gone without
 * giving them back are taken back, their descriptors closed: those that
 * serve no request now (killed between requests), and those read by pid
 * whatever they serve. A process that exec'd keeps its pid (its pidfd does
 * not poll readable), and its new program could hold at the old addresses
 * what reads as an executor (the same binary without ASLR): mem reads
 * nothing then, so such a place is read at most a second longer.
 */
void stat_pool_sweep(stat_pool_state *state)
{
	int end = stat_places_end(stat_memory->places), i;

	for (i = 0; i < end; i++) {
		stat_pool_slot *slot = &state->slots[i];
		stat_place_view view;

		if (slot->mem < 0 || !stat_places_view(stat_memory->places, i, &view) || (view.active && !slot->readv) ||
			view.owner != slot->owner) {
			continue;
		}
		if (stat_pool_gone(slot, &view)) {
			stat_places_reclaim(stat_memory->places, i, view.owner);
			stat_pool_forget(state, i);
		}
	}
}
