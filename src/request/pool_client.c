/*
 * pool_client.c: see pool_client.h.
 *
 * A request thread claims a place (places.h) at its first sampled request
 * and keeps it for the life of its thread (its process, without ZTS); at
 * each sampled request it publishes the request and where its executor is,
 * and at the end that none is. That is all a request costs in pool mode: a
 * few stores, no thread, no system call (but the first: the handover).
 *
 * A thread-safe (ZTS) PHP: each request thread holds a place of its own,
 * with its own executor (its executor globals, reached through TSRM, are
 * located by the thread itself), its tid and its own CPU clock (threaded:
 * the pool sampler reads the thread's CPU time, not the process's). The
 * places of one process's threads carry one process word, drawn by the
 * first thread that claims one: the pool sampler shares the memory handed
 * over for one place with the other places of the same process word (a
 * descriptor is of a process, not of a thread), so a thread's place is
 * often read before its own handover arrives. Each thread still hands its
 * memory over until its own place is held: a place it could share can be
 * given back (its thread ended) and forgotten before the pool sampler
 * looks at this one, and a thread that relied on it would go unread for
 * its whole request (a host that serves many requests in one, never read).
 * A thread that ends gives its place back (GSHUTDOWN:
 * stat_pool_client_gshutdown); MSHUTDOWN gives back the main thread's, and
 * unmaps only once no other thread of the process holds one (PHP frees the
 * globals of the threads still there after MSHUTDOWN).
 *
 * The handover: the pool sampler reads this process through a descriptor
 * of its /proc/PID/mem, which only this process can open without
 * privilege (or, where it has ptrace rights over it, by process_vm_readv of
 * its pid, the descriptor still held: pool.c). A dumpable process (CLI workers, php-fpm run as one user)
 * opens it and sends it with the place's number over the datagram socket
 * inherited from MINIT, without blocking, at each request until the pool
 * sampler says in the place that it holds it (a send refused, a socket
 * full, a descriptor it could not take: sent again). A process that is not
 * dumpable (a php-fpm worker that left root) is not made so: the pool
 * sampler, root there, opens its memory itself.
 *
 * A pcntl_fork() child is sampled like its parent: pcntl_fork() is wrapped
 * (MINIT), and the child of a sampled request claims a place of its own and
 * hands its memory over before pcntl_fork() returns in it. Not
 * pthread_atfork: that runs in the children of proc_open() and the like too,
 * which exec another program at once.
 *
 * State: each request thread's place in its module globals (STAT_G(pool),
 * php_stat.h: written by that thread only, and by GSHUTDOWN when PHP frees
 * them); the process's in the statics below: the pcntl_fork() handler (set
 * in MINIT, read-only after) and atomic words any request thread changes by
 * CAS, each keyed by the pid, so that a forked child, which inherits them,
 * takes none of its parent's for its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "php.h"

#include "../../php_stat.h"
#include "pool_client.h"
#include "../common/task.h"
#include "../pool/pool.h"
#include "../shared/places.h"
#include "../shared/samplers.h"
#include "../shared/memory.h"
#include "../shared/atomic.h"
#include "../shared/clock.h"
#include "../sampler/frame.h"
#include "warnings.h"

/* A request thread's side: its place, and the request it publishes there. */
struct _stat_pool_thread {
	int      place;       /* this thread's place, -1: none */
	pid_t    pid, tid;    /* who claimed it (a forked child's copy is not its own) */
	uint64_t owner;       /* the owner word it holds it with (places.h) */
	bool     active;      /* a request is published as sampled */
	int      quota;       /* the stat.samplers place held while active, -1: none */
	uint64_t request, request_start;
	stat_frame_target target;
};

/* This process's word for its places (pid | a number drawn once a process << 32; another pid's: none yet). */
static stat_atomic_u64 stat_pool_client_process;

/* The places this process's threads hold: (pid << 32) | count (another pid's word counts none). */
static stat_atomic_u64 stat_pool_client_places;

/*
 * The longest stat\sampler\deactivate() waits for a sample of its request
 * that the pool sampler is reading (a read takes microseconds: only a pool
 * sampler held still makes it wait this long).
 */
#define STAT_POOL_CLIENT_PATIENCE (10 * 1000 * 1000ULL)

/* pcntl_fork()'s own handler, which stat_pool_client_pcntl_fork calls (NULL: not wrapped). */
static zif_handler stat_pool_client_fork_handler = NULL;
static ZEND_NAMED_FUNCTION(stat_pool_client_pcntl_fork);

static pid_t stat_pool_client_gettid(void)
{
	return (pid_t) syscall(SYS_gettid);
}

static void stat_pool_client_count(int64_t n)
{
	uint64_t pid = (uint64_t) (uint32_t) getpid(), word = stat_atomic_load(&stat_pool_client_places), next;

	do {
		uint32_t count = (word >> 32) == pid ? (uint32_t) word : 0;

		next = (pid << 32) | (uint32_t) (count + (uint32_t) n);
	} while (!stat_atomic_cas(&stat_pool_client_places, &word, next));
}

uint32_t stat_pool_client_places_held(void)
{
	uint64_t word = stat_atomic_load(&stat_pool_client_places);

	return (word >> 32) == (uint64_t) (uint32_t) getpid() ? (uint32_t) word : 0;
}

/* This process's word (drawn by the first of its threads to ask). */
static uint64_t stat_pool_client_process_word(pid_t pid)
{
	uint64_t word = stat_atomic_load(&stat_pool_client_process);

	while ((uint32_t) word != (uint32_t) pid) {
		uint64_t fresh = (uint64_t) (uint32_t) pid | (stat_places_number(stat_memory->places) << 32);

		if (stat_atomic_cas(&stat_pool_client_process, &word, fresh)) {
			word = fresh;
		}
	}
	return word;
}

/* Hand this process's memory to the pool sampler for `thread`'s place; true once it is on its way. */
static bool stat_pool_client_hand(stat_pool_thread *thread)
{
	stat_pool_handover message;
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {&message, sizeof(message)};
	struct msghdr msg;
	struct cmsghdr *cmsg;
	int mem, socket = stat_pool_socket();
	ssize_t sent;

	/*
	 * Only a dumpable process may open its own /proc/self/mem (the file is
	 * root's otherwise): a php-fpm worker that left root is not, and is not
	 * made so (that would open it to every process of its user); the pool
	 * sampler, root then (forked by the master before it dropped), opens the
	 * worker's memory itself (pool.c).
	 */
	if (socket < 0 || prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 1) {
		return false;
	}
	mem = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	if (mem < 0) {
		return false;
	}

	memset(&message, 0, sizeof(message));
	message.magic = STAT_POOL_HANDOVER_MAGIC;
	message.place = thread->place;
	message.pid = (uint32_t) thread->pid;
	message.owner = thread->owner;
	memset(&msg, 0, sizeof(msg));
	memset(control, 0, sizeof(control));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = control;
	msg.msg_controllen = sizeof(control);
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &mem, sizeof(int));
	do {
		sent = sendmsg(socket, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (sent < 0 && errno == EINTR);
	close(mem);
	return sent == (ssize_t) sizeof(message);
}

/* Wake the pool sampler if it sleeps for want of active places (after this one was published). */
static void stat_pool_client_wake(void)
{
	stat_atomic_u64 *sleeping = stat_places_sleeping(stat_memory->places);
	uint64_t expected = 1;

	if (stat_atomic_load_seq(sleeping) == 1 && stat_atomic_cas(sleeping, &expected, 0)) {
		stat_pool_handover message;

		memset(&message, 0, sizeof(message));
		message.magic = STAT_POOL_HANDOVER_MAGIC;
		message.place = -1;
		/* (a full socket wakes it anyway) */
		(void) send(stat_pool_socket(), &message, sizeof(message), MSG_DONTWAIT | MSG_NOSIGNAL);
	}
}

/* This thread's side (made at its first sampled request); NULL if it cannot be. */
static stat_pool_thread *stat_pool_client_thread(void)
{
	if (!STAT_G(pool)) {
		STAT_G(pool) = calloc(1, sizeof(stat_pool_thread));
		if (STAT_G(pool)) {
			STAT_G(pool)->place = -1;
			STAT_G(pool)->quota = -1;
		}
	}
	return STAT_G(pool);
}

/* Claim a place for this thread of this process, if it has none of its own; false if there is none. */
static bool stat_pool_client_claim(stat_pool_thread *thread)
{
	pid_t pid = getpid();
	bool threaded;

	if (thread->place >= 0 && thread->pid == pid) {
		return true;
	}
#ifdef ZTS
	threaded = true;
#else
	threaded = false;
#endif
	thread->pid = pid;
	thread->tid = stat_pool_client_gettid();
	thread->active = false;
	thread->quota = -1;
	/* (once a thread: one read of /proc/self/stat) */
	thread->place = stat_places_claim(stat_memory->places, pid, thread->tid, stat_task_start_time(0),
		stat_pool_client_process_word(pid), threaded, &thread->owner);
	if (thread->place < 0) {
		return false;
	}
	stat_pool_client_count(1);
	return true;
}

/* Give this thread's place back (it holds one of this process, and no request is published there). */
static void stat_pool_client_give_back(stat_pool_thread *thread)
{
	stat_places_release(stat_memory->places, thread->place, thread->owner);
	stat_pool_client_count(-1);
	thread->place = -1;
}

/* Publish the request (claimed place, samplers quota held) and wake the sampler. */
static void stat_pool_client_publish(stat_pool_thread *thread)
{
	struct timespec cpu;

	if (!stat_places_held(stat_memory->places, thread->place, thread->owner)) {
		/* (not held yet, or the pool sampler could not take it: once a request until it says it holds it) */
		stat_pool_client_hand(thread);
	}
	/* (the CPU clock counts from here: one system call, a third of a microsecond; a thread's own, threaded) */
#ifdef ZTS
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) != 0) {
#else
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) != 0) {
#endif
		cpu.tv_sec = 0;
		cpu.tv_nsec = 0;
	}
	stat_places_publish(stat_memory->places, thread->place, true, thread->request,
		thread->request_start, (uint64_t) cpu.tv_sec * STAT_NS_PER_SEC + (uint64_t) cpu.tv_nsec,
		&thread->target);
	thread->active = true;
	stat_pool_client_wake();
}

bool stat_pool_client_start(uint64_t (*record)(void), uint64_t request_start)
{
	stat_pool_thread *thread;

	if (stat_pool_client_active() || stat_pool_socket() < 0 || !(thread = stat_pool_client_thread())) {
		return false;
	}
	if (!stat_pool_client_claim(thread)) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return false;
	}
	thread->quota = stat_samplers_claim(stat_memory->samplers, getpid(),
		stat_atomic_load(&stat_memory->live.samplers));
	if (thread->quota < 0) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return false;
	}
	/* (this thread's executor: under ZTS, its own executor globals) */
	stat_frame_target_locate(&thread->target);
	thread->request = record();
	thread->request_start = request_start;
	stat_pool_client_publish(thread);
	stat_atomic_inc(STAT_COUNTER(samplers_started));
	return true;
}

/*
 * Request thread, at the end of a sampled request: the first process of the
 * pool the pool sampler may not read (pool_memory.c's stat_pool_open), said
 * once for the pool in PHP's error log (php_log_err: error_log, else the
 * SAPI's, for php-fpm the web server's), with what lets it read.
 */
static void stat_pool_client_refused(void)
{
	uint64_t refused = stat_atomic_load_relaxed(&stat_memory->pool.refused), expected = 0;

	if (refused == 0 || !stat_atomic_cas(&stat_memory->pool.refused_reported, &expected, 1)) {
		return;
	}
	stat_log("stat: stat.sampler=pool: the pool sampler (pid %llu) may not read the memory of PHP process %u (%s), "
		"so its requests are not sampled (counted in samples_unreadable): start PHP with CAP_SYS_PTRACE (a container: "
		"--cap-add=SYS_PTRACE; Yama's ptrace_scope 3 refuses it to all), or let the workers hand their memory over "
		"(php-fpm: process.dumpable = yes, which opens them to every process of their user), or use stat.sampler=request",
		(unsigned long long) stat_atomic_load(&stat_memory->pool.pid), (unsigned) (refused >> 32),
		strerror((int) (uint32_t) refused));
}

bool stat_pool_client_stop(bool wait)
{
	stat_pool_thread *thread = STAT_G(pool);
	uint64_t seq;

	if (!stat_pool_client_active()) {
		return false;
	}
	seq = stat_places_publish(stat_memory->places, thread->place, false, 0, 0, 0, NULL);
	if (wait && !stat_places_read_done(stat_memory->places, thread->place, seq,
		stat_clock_now() + STAT_POOL_CLIENT_PATIENCE)) {
		/* (the pool sampler held still in the middle of a read: its sample may come after) */
		stat_atomic_inc(STAT_COUNTER(samplers_stuck));
	}
	thread->active = false;
	stat_samplers_release(stat_memory->samplers, thread->quota, thread->pid);
	thread->quota = -1;
	stat_pool_client_refused();
	return true;
}

bool stat_pool_client_active(void)
{
	stat_pool_thread *thread = STAT_G(pool);

	return thread && thread->active && thread->place >= 0 && thread->pid == getpid();
}

void stat_pool_client_mshutdown(void)
{
	stat_pool_thread *thread = STAT_G(pool);

	if (thread && thread->place >= 0 && thread->pid == getpid()) {
		stat_pool_client_stop(false);
		stat_pool_client_give_back(thread);
	}
	if (thread) {
		thread->place = -1;
	}
	stat_pool_release();
	if (stat_pool_client_fork_handler) {
		zend_function *fork = zend_hash_str_find_ptr(CG(function_table), "pcntl_fork", sizeof("pcntl_fork") - 1);

		if (fork && fork->type == ZEND_INTERNAL_FUNCTION && fork->internal_function.handler == stat_pool_client_pcntl_fork) {
			fork->internal_function.handler = stat_pool_client_fork_handler;
		}
		stat_pool_client_fork_handler = NULL;
	}
}

void stat_pool_client_gshutdown(stat_pool_thread **pool)
{
	stat_pool_thread *thread = *pool;

	if (!thread) {
		return;
	}
	/*
	 * A thread ended (or, after MSHUTDOWN, one PHP frees from the main
	 * thread): its place is given back. (The mapping is still there: MSHUTDOWN
	 * leaves it while a thread of the process holds a place.)
	 */
	if (thread->place >= 0 && thread->pid == getpid() && stat_memory) {
		if (thread->active) {
			stat_places_publish(stat_memory->places, thread->place, false, 0, 0, 0, NULL);
			stat_samplers_release(stat_memory->samplers, thread->quota, thread->pid);
		}
		stat_pool_client_give_back(thread);
	}
	free(thread);
	*pool = NULL;
}

/*
 * A pcntl_fork() child of a sampled request: the parent's request goes on
 * in the child, sampled under the child's own place (the same executor at
 * the same addresses).
 */
static void stat_pool_client_forked(void)
{
	stat_pool_thread *thread = STAT_G(pool);

	thread->active = false;
	thread->place = -1;
	if (!stat_pool_client_claim(thread)) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return;
	}
	thread->quota = stat_samplers_claim(stat_memory->samplers, getpid(), stat_atomic_load(&stat_memory->live.samplers));
	if (thread->quota < 0) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return;
	}
	stat_pool_client_publish(thread);
	stat_atomic_inc(STAT_COUNTER(samplers_started));
}


/*
 * pcntl_fork(), wrapped: the child of a sampled request claims its place at
 * once, so it is sampled without calling anything. Only pcntl_fork():
 * pthread_atfork would also run in the children of proc_open(), exec() and
 * the like, which are PHP no more once they exec.
 */
static ZEND_NAMED_FUNCTION(stat_pool_client_pcntl_fork)
{
	bool sampled = stat_pool_client_active();

	stat_pool_client_fork_handler(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (sampled && stat_memory && Z_TYPE_P(return_value) == IS_LONG && Z_LVAL_P(return_value) == 0) {
		stat_pool_client_forked();
	}
}

bool stat_pool_client_minit(void)
{
	zend_function *fork;
	char error[256];

	if (!stat_pool_start(error, sizeof(error))) {
		stat_warning("stat: stat.sampler=pool: cannot start the pool sampler: %s; each process samples its requests "
			"with a thread of its own (stat.sampler=request)", error);
		return false;
	}
	/* (pcntl's functions are registered by now: stat, a Zend extension, starts after the modules) */
	fork = zend_hash_str_find_ptr(CG(function_table), "pcntl_fork", sizeof("pcntl_fork") - 1);
	if (fork && fork->type == ZEND_INTERNAL_FUNCTION && fork->internal_function.handler != stat_pool_client_pcntl_fork) {
		stat_pool_client_fork_handler = fork->internal_function.handler;
		fork->internal_function.handler = stat_pool_client_pcntl_fork;
	}
	return true;
}

void stat_pool_client_watch(uint64_t now)
{
	/* (a CAS: under ZTS the request threads of the process look at once) */
	static stat_atomic_u64 next;
	uint64_t expected = 0, pid, due = stat_atomic_load_relaxed(&next);
	char message[256];

	if (now < due || !stat_atomic_cas(&next, &due, now + STAT_NS_PER_SEC)) {
		return;
	}
	if (stat_pool_alive()) {
		return;
	}
	pid = stat_atomic_load(&stat_memory->pool.pid);
	if (!stat_atomic_cas(&stat_memory->pool.reported, &expected, pid ? pid : 1)) {
		return;
	}
	snprintf(message, sizeof(message), "stat: the pool sampler (pid %llu) is gone: requests are not sampled; "
		"reload or restart PHP to start a new one", (unsigned long long) pid);
	php_log_err(message);
}
