--TEST--
stacks: an internal function is the leaf (type internal, symbol, no file or line) with the calling user frame next at its line; internal frames in the middle too
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
function hash_loop() {
    $big = str_repeat('x', 1 << 16); /* ~100 us a call: a sample rarely lands between two calls */
    for ($i = 1; $i % 10 || more(); $i++) { $s = md5($big); }
    return $s;
}
class Sorter {
    public function sort(array $a) {
        usort($a, function ($x, $y) {
            for ($i = 1; $i % 100000 || more(); $i++);
            return $x <=> $y;
        });
        return $a;
    }
}
until(300);
hash_loop();
until(200);
$items = new ArrayObject([2, 1]);
$items->uasort(function ($a, $b) {
    for ($i = 1; $i % 100000 || more(); $i++);
    return $a <=> $b;
});
until(200);
(new Sorter)->sort([2, 1]);
PHP);

stat_stacks_show('md5 at the leaf', $samples, ['function' => 'md5']);
$md5 = stat_stacks_select($samples, ['function' => 'md5']);
printf("md5 samples are internal with the symbol md5 and no location: %s\n", json_encode(array_values(array_unique(array_map(
    fn($s) => $s['type'] . ' ' . json_encode($s['symbol'] ?? null) . ' ' . json_encode($s['location'] ?? null), $md5)))));
stat_stacks_show('callback of usort', $samples, ['function' => '{closure}', 'start' => 9]);
stat_stacks_show('callback of ArrayObject->uasort()', $samples, ['function' => '{closure}', 'start' => 20]);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
md5 at the leaf: enough samples
{"function":"md5"}
{"function":"hash_loop","file":"child.php","line":4}
{"file":"child.php","line":17}
md5 samples are internal with the symbol md5 and no location: ["internal {\"function\":\"md5\"} null"]
callback of usort: enough samples
{"scope":"Sorter","function":"{closure}","file":"child.php","line":10,"start":9}
{"function":"usort"}
{"scope":"Sorter","function":"sort","file":"child.php","line":9}
{"file":"child.php","line":25}
callback of ArrayObject->uasort(): enough samples
{"function":"{closure}","file":"child.php","line":21,"start":20}
{"function":"uasort"}
{"scope":"ArrayObject","function":"uasort"}
{"file":"child.php","line":20}
