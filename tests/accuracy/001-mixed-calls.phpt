--TEST--
accuracy: a loop alternating four short calls, each around one internal call (in_array, str_replace, implode, dirname): each function's share of the samples is within 3 points of its share of the time (hrtime), at stat.stack 64 and 8 and at 100 us and 1 ms; at most 1% of samples fail
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/accuracy.inc';

$script = <<<'PHP'
<?php
$hay = [];
for ($i = 0; $i < 3000; $i++) {
    $hay[] = "s$i";
}
$text = str_repeat('hello world foo bar ', 360);
$ints = range(1, 700);
function fa(array $h) { return in_array('zz', $h); }
function fb(string $t) { return str_replace('foo', 'baz', $t); }
function fc(array $i) { return implode(',', $i); }
function fd() { $p = '/a/b/c/d/e/f'; for ($k = 0; $k < 200; $k++) { $q = dirname($p); } return $q; }
accuracy_run([
    'fa' => fn() => fa($hay),
    'fb' => fn() => fb($text),
    'fc' => fn() => fc($ints),
    'fd' => fn() => fd(),
], (float) ($argv[2] ?? 3));
PHP;

foreach ([['64', '100', 3], ['8', '100', 3], ['64', '1000', 8]] as [$stack, $interval, $seconds]) {
    $result = stat_accuracy_run(str_replace("(\$argv[2] ?? 3)", "($seconds)", $script), ['stat.stack' => $stack, 'stat.interval' => $interval]);
    stat_accuracy_report("stack $stack, interval $interval us", $result, 3.0, 1.0, $interval === '1000' ? 4000 : 10000);
}
?>
--EXPECT--
stack 64, interval 100 us: enough samples
  fa: within 3 points
  fb: within 3 points
  fc: within 3 points
  fd: within 3 points
  failed: at most 1%
stack 8, interval 100 us: enough samples
  fa: within 3 points
  fb: within 3 points
  fc: within 3 points
  fd: within 3 points
  failed: at most 1%
stack 64, interval 1000 us: enough samples
  fa: within 3 points
  fb: within 3 points
  fc: within 3 points
  fd: within 3 points
  failed: at most 1%
