--TEST--
accuracy: generators (a foreach over a generator doing the work between its yields, a generator delegating with yield from, and the same work called directly): each part's share of the samples is within 3 points of its share of the time (hrtime)
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
function numbers(int $count, int $n) {
    for ($k = 0; $k < $count; $k++) {
        yield work($n);
    }
}
function delegating(int $count, int $n) {
    yield from numbers($count, $n);
    yield work($n);
}
function looped(): int { $s = 0; foreach (numbers(10, 300) as $v) { $s += $v; } return $s; }
function delegated(): int { $s = 0; foreach (delegating(6, 300) as $v) { $s += $v; } return $s; }
function direct(): int { return work(2000); }
accuracy_run(['looped' => fn() => looped(), 'delegated' => fn() => delegated(), 'direct' => fn() => direct()], 3);
PHP);
stat_accuracy_report('generators', $result);
?>
--EXPECT--
generators: enough samples
  looped: within 3 points
  delegated: within 3 points
  direct: within 3 points
  failed: at most 1%
