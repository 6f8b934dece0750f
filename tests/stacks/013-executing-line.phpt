--TEST--
stacks: "line" is the line executing in each frame (from its opline), not the function's first line
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
function work(
    int $n
) {
    $total = 0;

    for ($i = 1; $i % 100000 || more(); $i++);

    return $total + $n;
}
function outer() {
    $a = 1;
    $b = 2;
    until(300);
    return
        work($a + $b);
}
outer();
PHP);

stat_stacks_show('work()', $samples, ['function' => 'work']);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
work(): enough samples
{"function":"work","file":"child.php","line":7}
{"function":"outer","file":"child.php","line":16}
{"file":"child.php","line":18}
