--TEST--
stacks: a named function or method called through a Closure (first-class callable syntax, Closure::fromCallable) is the same frame as when called directly: no "start"
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
function named() {
    for ($i = 1; $i % 100000 || more(); $i++);
}
class Tool {
    public static function work() {
        for ($i = 1; $i % 100000 || more(); $i++);
    }
}
until(200);
named();
until(200);
$f = named(...);
$f();
until(200);
$g = Closure::fromCallable([Tool::class, 'work']);
$g();
PHP);

stat_stacks_show('named()', $samples, ['function' => 'named']);
stat_stacks_show('Tool::work()', $samples, ['function' => 'work']);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
named(): enough samples
{"function":"named","file":"child.php","line":3}
{"file":"child.php","line":11}

{"function":"named","file":"child.php","line":3}
{"file":"child.php","line":14}
Tool::work(): enough samples
{"scope":"Tool","function":"work","file":"child.php","line":7}
{"file":"child.php","line":17}
