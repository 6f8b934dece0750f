--TEST--
stacks: a generator's frame is followed by the frame that resumed it (a foreach, or Generator->next()/send() and its caller)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
function numbers() {
    yield 1;
    for ($i = 1; $i % 100000 || more(); $i++);
    yield 2;
}
function consume() {
    foreach (numbers() as $n) {
        if ($n === 2) {
            break; /* never resumed after the hot spot: no samples of its end */
        }
        until(200);
    }
}
class Pump {
    public function drive() {
        $gen = (function () {
            $got = yield 1;
            for ($i = 1; $i % 100000 || more(); $i++);
            yield $got;
        })();
        $gen->current();
        until(200);
        $gen->send(2);
    }
}
consume();
(new Pump)->drive();
PHP);

stat_stacks_show('generator in a foreach', $samples, ['function' => 'numbers']);
stat_stacks_show('generator closure resumed by send()', $samples, ['function' => '{closure}', 'start' => 17]);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
generator in a foreach: enough samples
{"function":"numbers","file":"child.php","line":4}
{"function":"consume","file":"child.php","line":8}
{"file":"child.php","line":27}
generator closure resumed by send(): enough samples
{"scope":"Pump","function":"{closure}","file":"child.php","line":19,"start":17}
{"scope":"Generator","function":"send"}
{"scope":"Pump","function":"drive","file":"child.php","line":24}
{"file":"child.php","line":28}
