--TEST--
stacks: anonymous class methods have scope "class@anonymous" (or "Parent@anonymous"), cut at the NUL byte PHP puts in the name
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
abstract class Shape {
}
function make() {
    return new class {
        public function spin() {
            for ($i = 1; $i % 100000 || more(); $i++);
        }
    };
}
$plain = make();
$square = new class extends Shape {
    public static function spinStatic() {
        for ($i = 1; $i % 100000 || more(); $i++);
    }
};
until(200);
$plain->spin();
until(200);
$square::spinStatic();
echo get_class($plain) !== 'class@anonymous' ? "the real name is longer\n" : "short name\n";
PHP, $child);

echo $child->stdout();
stat_stacks_show('class@anonymous', $samples, ['function' => 'spin']);
stat_stacks_show('Shape@anonymous', $samples, ['function' => 'spinStatic']);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
the real name is longer
class@anonymous: enough samples
{"scope":"class@anonymous","function":"spin","file":"child.php","line":7}
{"file":"child.php","line":18}
Shape@anonymous: enough samples
{"scope":"Shape@anonymous","function":"spinStatic","file":"child.php","line":14}
{"file":"child.php","line":20}
