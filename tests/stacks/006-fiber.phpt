--TEST--
stacks: a fiber's frames end with "{fiber}", then Fiber->start()/resume() (internal, scope Fiber) and the frame that called it; nested fibers chain twice
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
function spinStarted() {
    for ($i = 1; $i % 100000 || more(); $i++);
}
function spinResumed() {
    for ($i = 1; $i % 100000 || more(); $i++);
}
function spinNested() {
    for ($i = 1; $i % 100000 || more(); $i++);
}
function body(string $name) {
    spinStarted();
    Fiber::suspend($name);
    spinResumed();
    $inner = new Fiber(function () {
        spinNested();
    });
    until(200);
    $inner->start();
}
class Scheduler {
    public function run() {
        $fiber = new Fiber('body');
        until(200);
        $fiber->start('one');
        until(200);
        $fiber->resume();
    }
}
(new Scheduler)->run();
PHP);

stat_stacks_show('started fiber', $samples, ['function' => 'spinStarted']);
stat_stacks_show('resumed fiber', $samples, ['function' => 'spinResumed']);
stat_stacks_show('fiber started in a fiber', $samples, ['function' => 'spinNested']);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
started fiber: enough samples
{"function":"spinStarted","file":"child.php","line":3}
{"function":"body","file":"child.php","line":12}
{"function":"{fiber}"}
{"scope":"Fiber","function":"start"}
{"scope":"Scheduler","function":"run","file":"child.php","line":25}
{"file":"child.php","line":30}
resumed fiber: enough samples
{"function":"spinResumed","file":"child.php","line":6}
{"function":"body","file":"child.php","line":14}
{"function":"{fiber}"}
{"scope":"Fiber","function":"resume"}
{"scope":"Scheduler","function":"run","file":"child.php","line":27}
{"file":"child.php","line":30}
fiber started in a fiber: enough samples
{"function":"spinNested","file":"child.php","line":9}
{"function":"{closure}","file":"child.php","line":16,"start":15}
{"function":"{fiber}"}
{"scope":"Fiber","function":"start"}
{"function":"body","file":"child.php","line":19}
{"function":"{fiber}"}
{"scope":"Fiber","function":"resume"}
{"scope":"Scheduler","function":"run","file":"child.php","line":27}
{"file":"child.php","line":30}
