/*
 * interrupt.bpf.c: a PHP stack read from inside the kernel at a timer
 * interrupt, for bench/floor (built with clang -target bpf, loaded by
 * interrupt.c). Attached to a cpu-clock perf event on every CPU: when the
 * interrupt lands in one of the measured PHP processes (tgid in lo .. hi),
 * it reads the executor globals' current frame, then, for each frame to
 * the root (at most 64), its head, the first 168 bytes of its function and
 * its opline's line, as stat's reads (1) and (3) take them, and hands the
 * frames' function, opline, name pointer and line to a ring buffer without
 * waking the reader (it empties it every 10 ms). What it costs is measured
 * by the kernel's run-time accounting of the program (bpf_stats_enabled).
 *
 * A prototype to measure a floor, not a sampler: it resolves no name and
 * validates nothing (a frame freed under it is a failed read, and the
 * stack ends there).
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

#define INTERRUPT_FRAMES 64

struct interrupt_frame {
	__u64 func, opline, name;
	__u32 line, unused;
};

struct interrupt_record {
	__u32 tgid, depth;
	__u64 at;
	struct interrupt_frame frames[INTERRUPT_FRAMES];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} records SEC(".maps");

/* a function's first bytes, copied as stat copies them (one per CPU: the program runs on each) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, unsigned char[256]);
} scratch SEC(".maps");

/* set by interrupt.c before loading (its interrupt_settings): where EG(current_execute_data) is, the pids, the engine's offsets */
const volatile struct {
	__u64 current_at;
	__u32 tgid_lo, tgid_hi;
	__u32 frame_func, frame_prev, op_lineno, func_name;
} settings = {0, 0, 0, 24, 48, 24, 8};

/* interrupts seen, and stacks handed over (read by interrupt.c) */
struct {
	__u64 fired, taken;
} counts = {0, 0};

SEC("perf_event")
int interrupt_sample(void *context)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32, i, zero = 0;
	struct interrupt_record *record;
	unsigned char *function;
	__u64 frame = 0;

	__sync_fetch_and_add(&counts.fired, 1);
	if (tgid < settings.tgid_lo || tgid > settings.tgid_hi) {
		return 0;
	}
	function = bpf_map_lookup_elem(&scratch, &zero);
	if (!function || bpf_probe_read_user(&frame, sizeof(frame), (void *) settings.current_at) || !frame) {
		return 0;
	}
	record = bpf_ringbuf_reserve(&records, sizeof(*record), 0);
	if (!record) {
		return 0;
	}
	record->tgid = tgid;
	record->at = bpf_ktime_get_ns();
	for (i = 0; i < INTERRUPT_FRAMES && frame; i++) {
		__u64 head[8] = {0};
		__u32 line = 0;

		if (bpf_probe_read_user(head, sizeof(head), (void *) frame) ||
			bpf_probe_read_user(function, 168, (void *) head[(settings.frame_func / 8) & 7])) {
			break;
		}
		record->frames[i].opline = head[0];
		record->frames[i].func = head[(settings.frame_func / 8) & 7];
		record->frames[i].name = *(__u64 *) (function + ((settings.func_name / 8) & 15) * 8);
		if (head[0]) {
			bpf_probe_read_user(&line, sizeof(line), (void *) (head[0] + settings.op_lineno));
		}
		record->frames[i].line = line;
		frame = head[(settings.frame_prev / 8) & 7];
	}
	record->depth = i;
	bpf_ringbuf_submit(record, BPF_RB_NO_WAKEUP);
	__sync_fetch_and_add(&counts.taken, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
