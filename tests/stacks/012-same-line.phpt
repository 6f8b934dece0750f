--TEST--
stacks: a() and b() called on the same line under one caller are two frames, each the leaf of its own samples with the caller at that line
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
function a() { until(200); for ($i = 1; $i % 100000 || more(); $i++); return 1; }
function b() { until(200); for ($i = 1; $i % 100000 || more(); $i++); return 2; }
function caller() {
    $x = a() + b();
    return $x;
}
caller();
PHP);

stat_stacks_show('in a()', $samples, ['function' => 'a']);
stat_stacks_show('in b()', $samples, ['function' => 'b']);
/* the caller at line 5 is under a leaf named a or b, never anything else */
$under = [];
foreach ($samples as $sample) {
    foreach ($sample['stack'] ?? [] as $i => $frame) {
        if ($i > 0 && ($frame['function'] ?? null) === 'caller') {
            $under[$sample['stack'][$i - 1]['function'] ?? '-'] = true;
        }
    }
}
ksort($under);
echo 'called from caller(): ', implode(' ', array_keys($under)), "\n";
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
in a(): enough samples
{"function":"a","file":"child.php","line":2}
{"function":"caller","file":"child.php","line":5}
{"file":"child.php","line":8}
in b(): enough samples
{"function":"b","file":"child.php","line":3}
{"function":"caller","file":"child.php","line":5}
{"file":"child.php","line":8}
called from caller(): a b
