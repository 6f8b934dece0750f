--TEST--
accuracy: fibers (one resumed again and again, doing work between its suspensions; one started and run to its end each time) and the same work called directly: each part's share of the samples is within 3 points of its share of the time (hrtime) (the same workload on a saturated machine: 007)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/accuracy.inc';

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
PHP);
stat_accuracy_report('fibers', $result);
?>
--EXPECT--
fibers: enough samples
  resumed: within 3 points
  started: within 3 points
  direct: within 3 points
  failed: at most 1%
