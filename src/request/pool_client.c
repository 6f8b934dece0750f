/*
 * pool_client.c: see pool_client.h.
 *
 * A request thread claims a place (places.h) at its first sampled request
 * and keeps it for the life of its process; at each sampled request it
 * publishes the request and where its executor is, and at the end that
 * none is. That is all a request costs in pool mode: a few stores, no
 * thread, no system call (but the first: the handover).
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
 * State: this process's, in the statics below (one request thread a
 * process: a thread-safe (ZTS) build samples with a thread per request,
 * request.c).
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

static struct {
	int      place;       /* this process's place, -1: none */
	pid_t    pid, tid;    /* who claimed it (a forked child's copy is not its own) */
	uint64_t owner;       /* the owner word it holds it with (places.h) */
	bool     active;      /* a request is published as sampled */
	int      quota;       /* the stat.samplers place held while active, -1: none */
	uint64_t request, request_start;
	stat_frame_target target;
} stat_pool_client = {-1, 0, 0, 0, false, -1, 0, 0, {0}};

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

static uint64_t stat_pool_client_owner(void)
{
	return stat_pool_client.owner;
}

/* Hand this process's memory to the pool sampler; true once it is on its way. */
static bool stat_pool_client_hand(void)
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
	message.place = stat_pool_client.place;
	message.pid = (uint32_t) stat_pool_client.pid;
	message.owner = stat_pool_client_owner();
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

/* Claim a place for this process and thread, if it has none of its own; false if there is none. */
static bool stat_pool_client_claim(void)
{
	pid_t pid = getpid();

	if (stat_pool_client.place >= 0 && stat_pool_client.pid == pid) {
		return true;
	}
	stat_pool_client.pid = pid;
	stat_pool_client.tid = stat_pool_client_gettid();
	stat_pool_client.active = false;
	stat_pool_client.quota = -1;
	/* (once a process: one read of /proc/self/stat) */
	stat_pool_client.place = stat_places_claim(stat_memory->places, pid, stat_pool_client.tid,
		stat_task_start_time(0), &stat_pool_client.owner);
	return stat_pool_client.place >= 0;
}

/* Publish the request (claimed place, samplers quota held) and wake the sampler. */
static void stat_pool_client_publish(void)
{
	struct timespec cpu;

	if (!stat_places_held(stat_memory->places, stat_pool_client.place, stat_pool_client_owner())) {
		/* (not held yet, or the pool sampler could not take it: once a request until it says it holds it) */
		stat_pool_client_hand();
	}
	/* (the CPU clock counts from here: one system call, a third of a microsecond) */
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) != 0) {
		cpu.tv_sec = 0;
		cpu.tv_nsec = 0;
	}
	stat_places_publish(stat_memory->places, stat_pool_client.place, true, stat_pool_client.request,
		stat_pool_client.request_start, (uint64_t) cpu.tv_sec * STAT_NS_PER_SEC + (uint64_t) cpu.tv_nsec,
		&stat_pool_client.target);
	stat_pool_client.active = true;
	stat_pool_client_wake();
}

bool stat_pool_client_start(uint64_t (*record)(void), uint64_t request_start)
{
	if (stat_pool_client_active() || stat_pool_socket() < 0) {
		return false;
	}
	if (!stat_pool_client_claim()) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return false;
	}
	stat_pool_client.quota = stat_samplers_claim(stat_memory->samplers, getpid(),
		stat_atomic_load(&stat_memory->live.samplers));
	if (stat_pool_client.quota < 0) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return false;
	}
	stat_frame_target_locate(&stat_pool_client.target);
	stat_pool_client.request = record();
	stat_pool_client.request_start = request_start;
	stat_pool_client_publish();
	stat_atomic_inc(STAT_COUNTER(samplers_started));
	return true;
}

bool stat_pool_client_stop(bool wait)
{
	uint64_t seq;

	if (!stat_pool_client_active()) {
		return false;
	}
	seq = stat_places_publish(stat_memory->places, stat_pool_client.place, false, 0, 0, 0, NULL);
	if (wait && !stat_places_read_done(stat_memory->places, stat_pool_client.place, seq,
		stat_clock_now() + STAT_POOL_CLIENT_PATIENCE)) {
		/* (the pool sampler held still in the middle of a read: its sample may come after) */
		stat_atomic_inc(STAT_COUNTER(samplers_stuck));
	}
	stat_pool_client.active = false;
	stat_samplers_release(stat_memory->samplers, stat_pool_client.quota, stat_pool_client.pid);
	stat_pool_client.quota = -1;
	return true;
}

bool stat_pool_client_active(void)
{
	return stat_pool_client.active && stat_pool_client.place >= 0 && stat_pool_client.pid == getpid();
}

void stat_pool_client_mshutdown(void)
{
	if (stat_pool_client.place >= 0 && stat_pool_client.pid == getpid()) {
		stat_pool_client_stop(false);
		stat_places_release(stat_memory->places, stat_pool_client.place, stat_pool_client.owner);
	}
	stat_pool_client.place = -1;
	stat_pool_release();
	if (stat_pool_client_fork_handler) {
		zend_function *fork = zend_hash_str_find_ptr(CG(function_table), "pcntl_fork", sizeof("pcntl_fork") - 1);

		if (fork && fork->type == ZEND_INTERNAL_FUNCTION && fork->internal_function.handler == stat_pool_client_pcntl_fork) {
			fork->internal_function.handler = stat_pool_client_fork_handler;
		}
		stat_pool_client_fork_handler = NULL;
	}
}

/*
 * A pcntl_fork() child of a sampled request: the parent's request goes on
 * in the child, sampled under the child's own place (the same executor at
 * the same addresses).
 */
static void stat_pool_client_forked(void)
{
	stat_pool_client.active = false;
	stat_pool_client.place = -1;
	if (!stat_pool_client_claim()) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return;
	}
	stat_pool_client.quota = stat_samplers_claim(stat_memory->samplers, getpid(), stat_atomic_load(&stat_memory->live.samplers));
	if (stat_pool_client.quota < 0) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return;
	}
	stat_pool_client_publish();
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
	static uint64_t next = 0;
	uint64_t expected = 0, pid;
	char message[256];

	if (now < next) {
		return;
	}
	next = now + STAT_NS_PER_SEC;
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
