--TEST--
accuracy: on the CPU clock beside busy loops (two per CPU), a loop alternating usleep(200) and a CPU loop (1 ms of CPU a call): each part's share of the samples is within 3 points of its share of the thread's CPU (getrusage() around each call, in unsampled stretches of the same run): a thread woken from usleep() and waiting for a CPU, its stack still in usleep(), is not sampled there for the CPU it used before it slept
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/accuracy.inc';

/*
 * The truth: the CPU each part's call uses, measured with getrusage() (the
 * process's CPU to the microsecond; in request mode the sampler thread is
 * parked while unsampled) around each call in the unsampled stretches (10 ms
 * after each 20 ms sampled), the median call of each part; both parts are
 * called as often. The profile: the CPU-clock samples holding each part.
 */
const WAITS = <<<'PHP'
<?php
function burn(): int { $x = 0; for ($i = 0; $i < 120000; $i++) { $x = ($x + $i * 7) % 1000003; } return $x; }
function nap(): void { usleep(200); }
function used(): int { $r = getrusage(); return ($r['ru_utime.tv_sec'] + $r['ru_stime.tv_sec']) * 1000000 + $r['ru_utime.tv_usec'] + $r['ru_stime.tv_usec']; }
$cpu = ['nap' => [], 'burn' => []];
$from = \stat\elapsed();
$written = \stat\counters()['samples_written'];
$now = hrtime(true);
$end = $now + 3000000000;
$switch = $now + 20000000;
$on = true;
do {
    if ($on) {
        nap();
        burn();
    } else {
        $a = used();
        nap();
        $b = used();
        burn();
        $cpu['nap'][] = $b - $a;
        $cpu['burn'][] = used() - $b;
    }
    $now = hrtime(true);
    if ($now >= $switch) {
        $on = !$on;
        $on ? \stat\sampler\activate() : \stat\sampler\deactivate();
        $switch = $now + ($on ? 20000000 : 10000000);
    }
    /* past its time with too few samples (a slow machine): on, for up to 20 s more */
    $more = \stat\counters()['samples_written'] - $written < 3000;
} while ($now < $end || ($more && $now < $end + 20000000000));
$to = \stat\elapsed();
$c = \stat\counters();
foreach ($cpu as $part => $list) {
    sort($list);
    $cpu[$part] = $list ? $list[intdiv(count($list), 2)] : 0;
}
file_put_contents($argv[1], json_encode(['window' => [$from, $to], 'cpu' => $cpu, 'written' => $c['samples_written'], 'failed' => $c['samples_failed']]));
PHP;

/* two busy loops per CPU, each ending by itself after 60 s should the test die first */
$cpus = max(1, (int) trim((string) shell_exec('nproc 2>/dev/null')));
$loops = [];
for ($i = 0; $i < 2 * $cpus; $i++) {
    $loop = proc_open([PHP_BINARY, '-n', '-r', '$end = time() + 60; while (time() < $end);'],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    if (is_resource($loop)) {
        $loops[] = $loop;
    }
}
$dir = stat_test_dir();
try {
    $child = new StatChild(['stat.clock' => 'cpu', 'stat.interval' => '200', 'stat.stack' => '64', 'stat.samples' => '100000', 'stat.dump' => '3'],
        WAITS, [3 => ['file', "$dir/dump.jsonl", 'w']], ["$dir/truth.json"]);
    $status = $child->wait(30 + STAT_TEST_TIMEOUT);
} finally {
    foreach ($loops as $loop) {
        /* 9: SIGKILL, without needing ext/pcntl's constant */
        proc_terminate($loop, 9);
        proc_close($loop);
    }
}
printf("exit: %s\n", var_export($status, true));
$truth = json_decode((string) file_get_contents("$dir/truth.json"), true);
[$from, $to] = $truth['window'];
$counts = array_fill_keys(['nap', 'burn'], 0);
$samples = 0;
[$all] = stat_test_decode((string) file_get_contents("$dir/dump.jsonl"));
foreach ($all as $sample) {
    if (!isset($sample['stack']) || $sample['elapsed'] < $from || $sample['elapsed'] > $to || ($sample['clock'] ?? '') !== 'cpu') {
        continue;
    }
    $names = array_flip(array_map(fn($frame) => $frame['function'] ?? '', $sample['stack']));
    foreach (['nap', 'burn'] as $part) {
        if (isset($names[$part])) {
            $counts[$part] += $sample['weight'] ?? 1;
            $samples++;
        }
    }
}
$result = ['samples' => $samples, 'failed' => 100 * $truth['failed'] / max(1, $truth['written'] + $truth['failed']), 'truth' => [], 'profile' => []];
foreach (['nap', 'burn'] as $part) {
    $result['truth'][$part] = 100 * $truth['cpu'][$part] / max(1, array_sum($truth['cpu']));
    $result['profile'][$part] = 100 * $counts[$part] / max(1, array_sum($counts));
}
stat_accuracy_report('cpu clock beside busy loops, usleep and a CPU loop', $result, 3.0, 1.0, 2000);
?>
--EXPECT--
exit: 0
cpu clock beside busy loops, usleep and a CPU loop: enough samples
  nap: within 3 points
  burn: within 3 points
  failed: at most 1%
