--TEST--
stacks: methods have the class as scope, instance or static alike; inherited and trait methods name the class that declares/uses them
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
trait Spins {
    public function traitSpin() {
        for ($i = 1; $i % 100000 || more(); $i++);
    }
}
class Base {
    use Spins;
    public function instanceSpin() {
        for ($i = 1; $i % 100000 || more(); $i++);
    }
    public static function staticSpin() {
        for ($i = 1; $i % 100000 || more(); $i++);
    }
}
class Kid extends Base {
    public function viaParent() {
        until(200);
        parent::instanceSpin();
    }
}
function main() {
    $kid = new Kid;
    until(200);
    $kid->instanceSpin();
    until(200);
    Kid::staticSpin();
    $kid->viaParent();
    until(200);
    $kid->traitSpin();
}
main();
PHP);

stat_stacks_show('instance method, from a function and through parent::', $samples, ['function' => 'instanceSpin']);
stat_stacks_show('static method', $samples, ['function' => 'staticSpin']);
stat_stacks_show('trait method', $samples, ['function' => 'traitSpin']);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
instance method, from a function and through parent::: enough samples
{"scope":"Base","function":"instanceSpin","file":"child.php","line":10}
{"function":"main","file":"child.php","line":25}
{"file":"child.php","line":32}

{"scope":"Base","function":"instanceSpin","file":"child.php","line":10}
{"scope":"Kid","function":"viaParent","file":"child.php","line":19}
{"function":"main","file":"child.php","line":28}
{"file":"child.php","line":32}
static method: enough samples
{"scope":"Base","function":"staticSpin","file":"child.php","line":13}
{"function":"main","file":"child.php","line":27}
{"file":"child.php","line":32}
trait method: enough samples
{"scope":"Base","function":"traitSpin","file":"child.php","line":4}
{"function":"main","file":"child.php","line":30}
{"file":"child.php","line":32}
