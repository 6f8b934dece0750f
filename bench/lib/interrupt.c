/*
 * interrupt.c: the timer interrupt measured where it lands, for
 * bench/floor. Opens a cpu-clock perf event on every CPU, firing every
 * <period> us, and attaches interrupt.bpf.c's program to each (or, with
 * --no-program, nothing: the interrupt alone); the program's engine
 * offsets come from PHP's headers here. Every 10 ms it empties the ring
 * buffer the program fills. On SIGTERM it prints one JSON line: stacks
 * received and their frames, interrupts fired and stacks taken (the
 * program's counters), its own CPU (ns), and the program's run time and
 * runs (the kernel's accounting: kernel.bpf_stats_enabled=1).
 *
 *   interrupt <interrupt.bpf.o> <address of PHP's executor_globals, hex>
 *             <lowest pid> <highest pid> <period us> [--no-program]
 *
 * Root only (perf events on every CPU, BPF). Built by bench/floor with
 * cc, PHP's includes and -lbpf at bench time; single-threaded.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "php.h"

/* interrupt.bpf.c's read-only settings, in its order */
typedef struct _interrupt_settings {
	uint64_t current_at;
	uint32_t tgid_lo, tgid_hi;
	uint32_t frame_func, frame_prev, op_lineno, func_name;
} interrupt_settings;

static volatile sig_atomic_t interrupt_stop;
static unsigned long long interrupt_records, interrupt_frames;

static void interrupt_on_term(int sig)
{
	(void) sig;
	interrupt_stop = 1;
}

static int interrupt_received(void *context, void *data, size_t length)
{
	(void) context;
	(void) length;
	interrupt_records++;
	interrupt_frames += ((const uint32_t *) data)[1];
	return 0;
}

static unsigned long long interrupt_own_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (unsigned long long) ts.tv_sec * 1000000000ULL + (unsigned long long) ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct bpf_object *object;
	struct bpf_program *program;
	struct ring_buffer *ring;
	interrupt_settings settings;
	struct bpf_map *rodata;
	const void *initial;
	struct bpf_prog_info info;
	uint32_t info_length = sizeof(info);
	uint64_t counters[2] = {0, 0};
	unsigned long long started, own;
	bool attach = !(argc > 6 && strcmp(argv[6], "--no-program") == 0);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), cpu;
	size_t size;
	int zero = 0;

	if (argc < 6) {
		fprintf(stderr, "usage: interrupt <interrupt.bpf.o> <executor_globals hex> <lowest pid> <highest pid> <period us> [--no-program]\n");
		return 2;
	}
	object = bpf_object__open_file(argv[1], NULL);
	if (!object) {
		fprintf(stderr, "interrupt: cannot open %s\n", argv[1]);
		return 1;
	}
	rodata = bpf_object__find_map_by_name(object, ".rodata");
	initial = rodata ? bpf_map__initial_value(rodata, &size) : NULL;
	if (!initial || size != sizeof(settings)) {
		fprintf(stderr, "interrupt: %s has not the settings this loader knows\n", argv[1]);
		return 1;
	}
	settings.current_at = strtoull(argv[2], NULL, 16) + offsetof(zend_executor_globals, current_execute_data);
	settings.tgid_lo = (uint32_t) atol(argv[3]);
	settings.tgid_hi = (uint32_t) atol(argv[4]);
	settings.frame_func = offsetof(zend_execute_data, func);
	settings.frame_prev = offsetof(zend_execute_data, prev_execute_data);
	settings.op_lineno = offsetof(zend_op, lineno);
	settings.func_name = offsetof(zend_function, common.function_name);
	if (bpf_map__set_initial_value(rodata, &settings, sizeof(settings)) != 0) {
		fprintf(stderr, "interrupt: cannot set the program's settings\n");
		return 1;
	}
	if (bpf_object__load(object) != 0) {
		fprintf(stderr, "interrupt: cannot load the program (root? a kernel with BPF?)\n");
		return 1;
	}
	program = bpf_object__find_program_by_name(object, "interrupt_sample");
	for (cpu = 0; cpu < cpus; cpu++) {
		struct perf_event_attr event;
		int fd;

		memset(&event, 0, sizeof(event));
		event.type = PERF_TYPE_SOFTWARE;
		event.size = sizeof(event);
		event.config = PERF_COUNT_SW_CPU_CLOCK;
		event.sample_period = (uint64_t) atol(argv[5]) * 1000;
		fd = (int) syscall(SYS_perf_event_open, &event, -1, (int) cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 || (attach && !bpf_program__attach_perf_event(program, fd))) {
			perror("interrupt: perf_event_open or attach");
			return 1;
		}
		if (!attach) {
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		}
	}
	ring = ring_buffer__new(bpf_map__fd(bpf_object__find_map_by_name(object, "records")), interrupt_received, NULL, NULL);
	signal(SIGTERM, interrupt_on_term);
	signal(SIGINT, interrupt_on_term);
	printf("ready\n");
	fflush(stdout);
	started = interrupt_own_ns();
	while (!interrupt_stop) {
		struct timespec pause_for = {0, 10 * 1000 * 1000};

		nanosleep(&pause_for, NULL);
		ring_buffer__consume(ring);
	}
	ring_buffer__consume(ring);
	own = interrupt_own_ns() - started;
	memset(&info, 0, sizeof(info));
	bpf_obj_get_info_by_fd(bpf_program__fd(program), &info, &info_length);
	bpf_map_lookup_elem(bpf_map__fd(bpf_object__find_map_by_name(object, ".bss")), &zero, counters);
	printf("{\"records\":%llu,\"frames\":%llu,\"fired\":%llu,\"taken\":%llu,\"reader_ns\":%llu,\"program_ns\":%llu,\"program_runs\":%llu}\n",
		interrupt_records, interrupt_frames, (unsigned long long) counters[0], (unsigned long long) counters[1], own,
		(unsigned long long) info.run_time_ns, (unsigned long long) info.run_cnt);
	return 0;
}
