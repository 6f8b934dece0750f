--TEST--
stacks: a generator run through "yield from" is followed by the delegating generator and the frame that resumed it, as in PHP's backtraces
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
function inner() {
    yield 1;
    for ($i = 1; $i % 100000 || more(); $i++);
    yield 2;
}
function outer() {
    $inner = inner();
    yield 0;
    yield from $inner;
}
function consume() {
    foreach (outer() as $v) {
        if ($v === 2) {
            break;
        }
        until(200);
    }
}
consume();
PHP);

/* all samples, also those whose stack does not reach the script */
stat_stacks_show('inner generator', $samples, ['function' => 'inner', 'line' => 4], 20, false);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
inner generator: enough samples
{"function":"inner","file":"child.php","line":4}
{"function":"outer","file":"child.php","line":10}
{"function":"consume","file":"child.php","line":13}
{"file":"child.php","line":20}
