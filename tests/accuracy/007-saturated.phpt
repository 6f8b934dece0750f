--TEST--
accuracy: on a saturated machine (two busy loops per CPU beside the workload), late ticks stand for the intervals they missed: the samples' weights account for every interval of the run (counted once each, a quarter to a half of them went missing), and each part's weighted share is within 3 points of its share of the time (hrtime); fibers, the workload whose parts came furthest apart under saturation
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/accuracy.inc';

/* two busy loops per CPU (one each left 11% of the ticks missed once), each ending by itself after 30 s should the test die first */
$cpus = max(1, (int) trim((string) shell_exec('nproc 2>/dev/null')));
$loops = [];
for ($i = 0; $i < 2 * $cpus; $i++) {
    $loop = proc_open([PHP_BINARY, '-n', '-r', '$end = time() + 30; while (time() < $end);'],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    if (is_resource($loop)) {
        $loops[] = $loop;
    }
}
try {
    $result = stat_accuracy_run(<<<'PHP'
<?php
function work(int $n): int {
    $x = 0;
    for ($i = 0; $i < $n; $i++) {
        $x = ($x + $i * 7) % 1000003;
    }
    return $x;
}
$fiber = new Fiber(function (): void {
    while (true) {
        Fiber::suspend(work(1500));
    }
});
$fiber->start();
function resumed(Fiber $fiber): int { return $fiber->resume(); }
function started(): int { $f = new Fiber(fn() => work(1200)); $f->start(); return $f->getReturn(); }
function direct(): int { return work(1000); }
accuracy_run(['resumed' => fn() => resumed($fiber), 'started' => fn() => started(), 'direct' => fn() => direct()], 3);
PHP, [], null, false);
    /* (the truth is this run's own: saturated, the parts' shares of the time move with each run's preemptions, direct's from 16 to 31%) */
} finally {
    foreach ($loops as $loop) {
        /* 9: SIGKILL, without needing ext/pcntl's constant */
        proc_terminate($loop, 9);
        proc_close($loop);
    }
}

$intervals = $result['window'] / 100e-6;
/* saturated indeed: at least twice the tolerance below missed (with fewer, counting each sample once could pass it too) */
printf("ticks missed: %s\n", $result['missed'] >= 0.10 * $intervals ? 'yes' : "only {$result['missed']} of " . round($intervals));
/* the weights cover the run's intervals (failed reads, at most 1%, and the window's ends aside) */
$covered = $result['weights'] / $intervals;
printf("intervals the weights account for: %s\n", abs($covered - 1) <= 0.05 ? 'all (within 5%)' : sprintf('%.1f%%', 100 * $covered));
stat_accuracy_report('saturated, fibers', $result, 3.0, 1.0, 5000);
?>
--EXPECT--
ticks missed: yes
intervals the weights account for: all (within 5%)
saturated, fibers: enough samples
  resumed: within 3 points
  started: within 3 points
  direct: within 3 points
  failed: at most 1%
