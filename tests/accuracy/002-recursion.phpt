--TEST--
accuracy: deep recursion (300 frames, cut at stat.stack=64: the outermost frames kept), 40 frames deep, and the same work called directly: each part's share of the samples is within 3 points of its share of the time (hrtime)
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
    return $x + strlen((string) $x);
}
function down(int $depth, int $n): int {
    return $depth > 0 ? down($depth - 1, $n) + 1 : work($n);
}
function deep(): int { return down(300, 3000); }
function middle(): int { return down(40, 2000); }
function shallow(): int { return work(2500); }
accuracy_run(['deep' => fn() => deep(), 'middle' => fn() => middle(), 'shallow' => fn() => shallow()], 3);
PHP);
stat_accuracy_report('recursion', $result);
?>
--EXPECT--
recursion: enough samples
  deep: within 3 points
  middle: within 3 points
  shallow: within 3 points
  failed: at most 1%
