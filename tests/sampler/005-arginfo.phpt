--TEST--
sampler: with stat.arginfo=1, samples of a function show its arguments' types: string(5), array(3), object(Foo), int, float, bool(true), null
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.arginfo' => '1', 'stat.interval' => '100'],
    <<<'PHP'
<?php
class Foo {}
function arginfo_target(string $s, array $a, object $o, int $i, float $f, bool $b, $n): int {
    /* a loop in this frame, so samples land here and not in a callee */
    $t = 0;
    $end = microtime(true) + 0.3;
    while (microtime(true) < $end || stat\counters()['samples_written'] < 50) {
        for ($k = 0; $k < 500; $k++) { $t += $k; }
        if (microtime(true) > $end + 5.0) { break; }
    }
    return $t;
}
echo "ready\n";
fgets(STDIN);
arginfo_target('hello', [1, 2, 3], new Foo, 42, 1.5, true, null);
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll(), $child->wait(), $child->stderr(), $stream->invalid);

$target = array_values(array_filter($stream->samples, fn($s) => stat_test_symbol($s) === 'arginfo_target'));
printf("samples of arginfo_target: %s\n", count($target) > 0 ? 'some' : 'none');
printf("all carry arginfo: %s\n", $target && count(array_filter($target, fn($s) => isset($s['arginfo']))) === count($target) ? 'yes' : 'no');
$expected = ['string(5)', 'array(3)', 'object(Foo)', 'int', 'float', 'bool(true)', 'null'];
$exact = array_filter($target, fn($s) => ($s['arginfo'] ?? null) === $expected);
printf("a sample with exactly the expected arginfo: %s\n", $exact ? 'yes' : 'no');
if (!$exact && $target) {
    echo "seen: ", json_encode(array_values(array_unique(array_map(fn($s) => json_encode($s['arginfo'] ?? null), $target)))), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
array(0) {
}
samples of arginfo_target: some
all carry arginfo: yes
a sample with exactly the expected arginfo: yes
