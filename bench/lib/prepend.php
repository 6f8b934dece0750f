<?php
/*
 * Loaded with auto_prepend_file in every benchmark run (the baseline too, so
 * every configuration compiles the same extra file). BENCH_PROFILER says which
 * profiler to drive:
 *   none      nothing to do (baseline, and stat: stat starts itself at RINIT)
 *   stat      nothing to start; report stat\counters() at the end
 *   excimer   ExcimerProfiler, EXCIMER_REAL, every BENCH_PERIOD_US microseconds
 *   tideways  tideways_xhprof_enable() with its default flags
 * With BENCH_WAIT_CLIENT set (stat with a stream client), the script first
 * waits (polling, 10 s at most) until the client is connected, so a short
 * run cannot finish before its client arrives; the time waited is reported
 * and the runner takes it off the wall time.
 * At shutdown the profiler's data is collected the way a user would collect
 * it (Excimer's collapsed stacks, xhprof's array serialised), so that cost is
 * part of the measurement, and one line "BENCH {json}" goes to stderr with
 * the script's own run time, the profiler's figures and the CPU time of each
 * thread of this process (from /proc, in nanoseconds).
 *
 * No float is parsed or formatted here (times are integer nanoseconds):
 * stat builds before the fix for tests/bench/002-float-format-race.phpt
 * format floats on their listener thread with PHP's non-thread-safe dtoa,
 * which corrupts float formatting on the PHP thread while a client reads.
 */

$GLOBALS['__bench'] = ['start' => hrtime(true), 'profiler' => getenv('BENCH_PROFILER') ?: 'none', 'waited_ns' => 0];

if (getenv('BENCH_WAIT_CLIENT') && function_exists('stat\counters')) {
	$deadline = hrtime(true) + 10 * 1000000000;
	while (stat\counters()['clients_connected'] < 1 && hrtime(true) < $deadline) {
		usleep(500);
	}
	$GLOBALS['__bench']['waited_ns'] = hrtime(true) - $GLOBALS['__bench']['start'];
}

switch ($GLOBALS['__bench']['profiler']) {
	case 'excimer':
		$GLOBALS['__bench']['excimer'] = new ExcimerProfiler;
		$GLOBALS['__bench']['excimer']->setEventType(EXCIMER_REAL);
		$GLOBALS['__bench']['excimer']->setPeriod((int) getenv('BENCH_PERIOD_US') / 1000000);
		$GLOBALS['__bench']['excimer']->start();
		break;
	case 'tideways':
		tideways_xhprof_enable();
		break;
}

register_shutdown_function(function (): void {
	$bench = $GLOBALS['__bench'];
	$report = ['profiler' => $bench['profiler']];

	switch ($bench['profiler']) {
		case 'excimer':
			$bench['excimer']->stop();
			$log = $bench['excimer']->getLog();
			$report['samples'] = count($log);
			$report['output_bytes'] = strlen($log->formatCollapsed());
			break;
		case 'tideways':
			$data = tideways_xhprof_disable();
			$report['edges'] = count($data);
			$report['output_bytes'] = strlen(serialize($data));
			break;
	}
	if (function_exists('stat\counters')) {
		$report['counters'] = stat\counters();
	}
	$report['script_ns'] = hrtime(true) - $bench['start'];
	$report['waited_ns'] = $bench['waited_ns'];
	$report['threads'] = bench_threads();
	$report['listener_ns'] = bench_listener_ns();
	fwrite(STDERR, 'BENCH ' . json_encode($report) . "\n");
});

/*
 * CPU time so far of each thread of this process: [tid, start, cpu_ns],
 * the main thread first, the others in the order they started. With stat
 * loaded the one other thread is the sampler (the listener is a process).
 */
function bench_threads(): array
{
	$threads = [];
	foreach (glob('/proc/self/task/*') ?: [] as $task) {
		$tid = (int) basename($task);
		$schedstat = @file_get_contents("$task/schedstat");
		$stat = @file_get_contents("$task/stat");
		if ($schedstat === false || $stat === false) {
			continue;
		}
		/* fields after the ")" that ends the command name; starttime is field 22 */
		$fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
		$threads[] = ['tid' => $tid, 'start' => (int) $fields[19], 'cpu_ns' => (int) explode(' ', $schedstat)[0]];
	}
	$main = getmypid();
	usort($threads, fn($a, $b) => [$a['tid'] !== $main, $a['start'], $a['tid']] <=> [$b['tid'] !== $main, $b['start'], $b['tid']]);
	return $threads;
}

/*
 * CPU time so far of stat's listener: the process stat\settings() names (it is
 * forked twice, so it is not this process's child).
 */
function bench_listener_ns(): ?int
{
	$pid = function_exists('stat\settings') ? (int) (\stat\settings()['listener']['pid'] ?? 0) : 0;
	$schedstat = $pid > 0 ? @file_get_contents("/proc/$pid/schedstat") : false;
	return $schedstat === false ? null : (int) explode(' ', $schedstat)[0];
}
