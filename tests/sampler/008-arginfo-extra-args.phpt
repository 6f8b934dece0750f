--TEST--
sampler: arginfo of a user function called with more arguments than it declares shows the extra arguments, not its local variables
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.arginfo' => '1', 'stat.interval' => '100'], <<<'PHP'
<?php
/* declares one parameter; PHP keeps extra arguments after the locals and temporaries */
function extra_args_target($a) {
    $local = [1, 2, 3, 4];
    $t = 0;
    $end = microtime(true) + 0.3;
    while (microtime(true) < $end || stat\counters()['samples_written'] < 50) {
        for ($k = 0; $k < 500; $k++) { $t += $k; }
        if (microtime(true) > $end + 5.0) { break; }
    }
    return $t + count($local);
}
echo "ready\n";
fgets(STDIN);
extra_args_target(1, 'xy', 2.5);
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll(), $child->wait(), $child->stderr(), $stream->invalid);

$target = array_values(array_filter($stream->samples, fn($s) => stat_test_symbol($s) === 'extra_args_target'));
printf("samples of extra_args_target: %s\n", count($target) > 0 ? 'some' : 'none');
$seen = array_count_values(array_map(fn($s) => json_encode($s['arginfo'] ?? null), $target));
arsort($seen);
echo "most seen arginfo: ", array_key_first($seen) ?? 'none', "\n";
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
array(0) {
}
samples of extra_args_target: some
most seen arginfo: ["int","string(2)","float"]
