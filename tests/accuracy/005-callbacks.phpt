--TEST--
accuracy: closures and callbacks (array_map with a closure, usort with a comparator, a closure called directly, call_user_func) and plain work: each part's share of the samples is within 3 points of its share of the time (hrtime)
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
$values = range(1, 300);
shuffle($values);
function mapped(array $values): int { return array_sum(array_map(fn($v) => work(8) + $v, $values)); }
function sorted(array $values): int { usort($values, fn($a, $b) => (work(2) & 0) + ($a <=> $b)); return $values[0]; }
function closed(): int { $c = function (int $n): int { return work($n); }; return $c(2000); }
function called(): int { return call_user_func('work', 2000); }
function plain(): int { return work(2000); }
accuracy_run(['mapped' => fn() => mapped($values), 'sorted' => fn() => sorted($values), 'closed' => fn() => closed(),
    'called' => fn() => called(), 'plain' => fn() => plain()], 3);
PHP);
stat_accuracy_report('callbacks', $result);
?>
--EXPECT--
callbacks: enough samples
  mapped: within 3 points
  sorted: within 3 points
  closed: within 3 points
  called: within 3 points
  plain: within 3 points
  failed: at most 1%
