<?php
/*
 * The profiled process of bench/pool: a CLI parent that pcntl_fork()s N
 * children, each doing 1/N of a fixed amount of CPU-bound work
 * (workloads/cpu.php), all at once: N busy processes. Runs as `php -n`
 * with whatever profiler the runner loads; BENCH_PROFILER says which to
 * drive:
 *   none     nothing (the baseline)
 *   stat     the parent runs with stat.auto=0 (not sampled: it only waits);
 *            each child calls stat\sampler\activate() when it starts and
 *            deactivate() when its work is done, in both stat.sampler modes
 *            alike (request: a sampler thread in each child; pool: a place
 *            for the pool sampler)
 *   excimer  each child starts its own ExcimerProfiler (EXCIMER_REAL every
 *            BENCH_PERIOD_US) and collects formatCollapsed() at the end
 *
 *   php -n [-d ...] forked.php <processes> <scale of the whole work>
 *
 * Environment: BENCH_WAIT_CLIENT (stat with a stream client: the parent
 * waits, 10 s at most, until it is connected), BENCH_TIMER="<wakeup binary>
 * <interval us>" (the timer wake-up helper, lib/wakeup.c, started once all
 * children run and stopped when the first one ends: what a wake-up costs
 * while N processes are busy), BENCH_DIR (a directory for the children's
 * reports).
 *
 * Each child writes one JSON report: its own thread's CPU (schedstat of its
 * main thread), the CPU of every other thread it has by name (stat's
 * "stat sampler" in request mode), Excimer's samples, its checksum. The
 * parent prints one line "BENCH {json}" on stderr: the children's reports,
 * their rusage (all threads, from pcntl_wait), stat's counters before and
 * after, and the CPU the listener and the pool sampler processes used
 * between the first fork and the last child's end (their schedstat).
 * Times are integer nanoseconds (or microseconds from rusage).
 */
$processes = max(1, (int) ($argv[1] ?? 1));
$scale = (float) ($argv[2] ?? 1);
$profiler = getenv('BENCH_PROFILER') ?: 'none';
$period = (int) getenv('BENCH_PERIOD_US');
$dir = getenv('BENCH_DIR') ?: sys_get_temp_dir();
$stat = function_exists('stat\settings');

function bench_schedstat(string $path): ?int
{
	$text = @file_get_contents($path);
	return $text === false ? null : (int) explode(' ', $text)[0];
}

/* the CPU of this process's threads but the main one, by name: [name => ns] */
function bench_other_threads(): array
{
	$threads = [];
	foreach (glob('/proc/self/task/*') ?: [] as $task) {
		if ((int) basename($task) === getmypid()) {
			continue;
		}
		$name = trim((string) @file_get_contents("$task/comm"));
		$threads[$name] = ($threads[$name] ?? 0) + (int) bench_schedstat("$task/schedstat");
	}
	return $threads;
}

/* stat's processes: the listener and (pool mode) the pool sampler, by pid */
function bench_stat_processes(): array
{
	if (!function_exists('stat\settings')) {
		return [];
	}
	$settings = stat\settings();
	$pids = ['listener' => (int) ($settings['listener']['pid'] ?? 0), 'pool' => (int) ($settings['pool']['pid'] ?? 0)];
	return array_map(fn($pid) => $pid > 0 ? bench_schedstat("/proc/$pid/schedstat") : null, $pids);
}

$waited = 0;
if (getenv('BENCH_WAIT_CLIENT') && $stat) {
	$start = hrtime(true);
	while (stat\counters()['clients_connected'] < 1 && hrtime(true) < $start + 10 * 1000000000) {
		usleep(500);
	}
	$waited = hrtime(true) - $start;
}

$counters_before = $stat ? stat\counters() : null;
$stat_before = bench_stat_processes();
$started = hrtime(true);
$children = [];
for ($i = 0; $i < $processes; $i++) {
	$pid = pcntl_fork();
	if ($pid < 0) {
		fwrite(STDERR, "forked.php: pcntl_fork() failed\n");
		exit(1);
	}
	if ($pid > 0) {
		$children[$pid] = $i;
		continue;
	}
	/* a child: its share of the work, under its profiler */
	$report = ['child' => $i, 'pid' => getmypid()];
	$excimer = null;
	if ($profiler === 'stat') {
		$report['activated'] = stat\sampler\activate();
	} elseif ($profiler === 'excimer') {
		$excimer = new ExcimerProfiler;
		$excimer->setEventType(EXCIMER_REAL);
		$excimer->setPeriod($period / 1000000);
		$excimer->start();
	}
	$work = function (float $scale): string {
		$argv = [__FILE__, (string) $scale];
		ob_start();
		include __DIR__ . '/../workloads/cpu.php';
		return trim((string) ob_get_clean());
	};
	$report['result'] = $work($scale / $processes);
	if ($profiler === 'stat') {
		stat\sampler\deactivate();
	} elseif ($excimer) {
		$excimer->stop();
		/* (Excimer 1.0's timer notifies on a thread of its own: one still due after stop() and
		 * running at exit aborts the process, "pthread_mutex_lock(): Invalid argument"; give it time) */
		usleep(20000);
		$log = $excimer->getLog();
		$report['samples'] = count($log);
		$report['output_bytes'] = strlen($log->formatCollapsed());
	}
	$report['main_ns'] = bench_schedstat('/proc/self/task/' . getmypid() . '/schedstat');
	$report['threads'] = bench_other_threads();
	file_put_contents("$dir/child-$i.json", json_encode($report));
	exit(0);
}

/* the timer wake-up helper, while all N run */
$timer = null;
if ($spec = getenv('BENCH_TIMER')) {
	$timer = proc_open(array_merge(explode(' ', $spec), ['600', '--ready']), [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w']], $pipes);
	$timer_out = $pipes[1];
	/* it says "ready" once it can report: a SIGTERM before that would end it silently */
	fgets($timer_out);
}

$rusage = [];
$first_end = null;
$statuses = [];
while ($children) {
	$pid = pcntl_wait($status, 0, $usage);
	if ($pid <= 0) {
		break;
	}
	if (!isset($children[$pid])) {
		continue;  /* (the timer helper, if it ended on its own) */
	}
	if ($timer && $first_end === null) {
		proc_terminate($timer, 15);
	}
	$first_end ??= hrtime(true);
	$i = $children[$pid];
	unset($children[$pid]);
	$statuses[$i] = pcntl_wifexited($status) ? pcntl_wexitstatus($status) : -1;
	$rusage[$i] = ($usage['ru_utime.tv_sec'] + $usage['ru_stime.tv_sec']) * 1000000 + $usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_usec'];
}
$ended = hrtime(true);
/* the listener sends what is left in the ring at its next tick (2 ms): let it, then count its CPU */
usleep(20000);
$stat_after = bench_stat_processes();
$counters_after = $stat ? stat\counters() : null;

$report = ['processes' => $processes, 'scale' => $scale, 'profiler' => $profiler, 'waited_ns' => $waited,
	'busy_ns' => $ended - $started, 'all_busy_ns' => ($first_end ?? $ended) - $started, 'children' => []];
for ($i = 0; $i < $processes; $i++) {
	$child = json_decode((string) @file_get_contents("$dir/child-$i.json"), true);
	@unlink("$dir/child-$i.json");
	$report['children'][] = (is_array($child) ? $child : ['missing' => true]) + ['status' => $statuses[$i] ?? null, 'rusage_us' => $rusage[$i] ?? null];
}
foreach ($stat_before as $name => $ns) {
	$report["{$name}_ns"] = $ns !== null && $stat_after[$name] !== null ? $stat_after[$name] - $ns : null;
}
if ($stat) {
	$report['counters'] = array_map(fn($after, $before) => is_int($after) && is_int($before) ? $after - $before : $after, $counters_after, $counters_before);
	$report['counters'] = array_combine(array_keys($counters_after), $report['counters']);
	$report['settings'] = stat\settings();
}
if ($timer) {
	$report['timer'] = json_decode((string) stream_get_contents($timer_out), true);
	proc_close($timer);
}
fwrite(STDERR, 'BENCH ' . json_encode($report) . "\n");
