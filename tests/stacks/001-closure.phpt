--TEST--
stacks: closures are "{closure}" on every PHP version (8.4 names them "{closure:f():3}") with file, "start" (first line) and the executing line; in a method they carry the class as scope; the sample's symbol carries "start" too
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

/* the sample's own symbol while a closure's hot loop runs (lines 4 and 13), and no engine name anywhere */
$symbols = $engine = [];
foreach ($samples as $sample) {
    if (in_array($sample['location']['line'] ?? 0, [4, 13], true)) {
        $symbols[json_encode($sample['symbol'] ?? null)] = true;
    }
    foreach (array_merge([$sample['symbol'] ?? []], $sample['stack'] ?? []) as $frame) {
        if (preg_match('/^\{closure:/', $frame['function'] ?? '')) {
            $engine[$frame['function']] = true;
        }
    }
}
ksort($symbols);
echo "symbols:\n", implode("\n", array_keys($symbols)), "\n";
printf("engine closure names: %s\n", json_encode(array_keys($engine)));
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
symbols:
{"function":"{closure}","start":3}
{"scope":"Holder","function":"{closure}","start":10}
engine closure names: []
