--TEST--
stacks: closures are "{closure}" with file, "start" (first line) and the executing line; in a method they carry the class as scope
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
function plain() {
    $f = function () {
        for ($i = 1; $i % 100000 || more(); $i++);
    };
    $f();
}
class Holder {
    public function run(int $x) {
        $f = static function () use (
            $x
        ) {
            for ($i = 1; $i % 100000 || more(); $i++);
        };
        $arrow = fn() => $f();
        return $arrow();
    }
}
until(200);
plain();
until(200);
(new Holder)->run(1);
PHP);

stat_stacks_show('closure in a function', $samples, ['function' => '{closure}', 'start' => 3]);
stat_stacks_show('closure in a method, called by an arrow function', $samples, ['function' => '{closure}', 'start' => 10]);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
closure in a function: enough samples
{"function":"{closure}","file":"child.php","line":4,"start":3}
{"function":"plain","file":"child.php","line":6}
{"file":"child.php","line":20}
closure in a method, called by an arrow function: enough samples
{"scope":"Holder","function":"{closure}","file":"child.php","line":13,"start":10}
{"scope":"Holder","function":"{closure}","file":"child.php","line":15,"start":15}
{"scope":"Holder","function":"run","file":"child.php","line":16}
{"file":"child.php","line":22}
