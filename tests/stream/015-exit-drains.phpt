--TEST--
stream: at process exit a reading client gets every sample, then EOF (drained, then closed)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$script = <<<'PHP'
<?php
function fib(int $n): int { return $n < 2 ? $n : fib($n - 1) + fib($n - 2); }
function final_phase(): void {
    $start = microtime(true);
    $until = stat\counters()['samples_written'] + 300;
    $t = 0;
    while ((microtime(true) - $start < 0.3 || stat\counters()['samples_written'] < $until) && microtime(true) - $start < 20) {
        for ($i = 0; $i < 1000; $i++) { $t += $i * $i; }
    }
}
echo "ready\n";
fgets(STDIN);
if (!stat\sampler\active()) { stat\sampler\activate(); }
$start = microtime(true);
while (microtime(true) - $start < 0.3) { fib(15); }
final_phase();
if (ini_get('stat.auto') === '0') {
    stat\sampler\deactivate();
    echo 'counters ', json_encode(stat\counters()), "\n";
}
PHP;

/* A: the sampler is stopped in the script, whose counters are then final */
$child = new StatChild(['stat.stream' => "$dir/a.sock", 'stat.auto' => '0', 'stat.samples' => '100000'], $script);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/a.sock");
$child->send("go\n");
var_dump($stream->readAll());
var_dump($child->wait());
$counters = stat_stream_counters($child);
var_dump($stream->invalid, $stream->lost, $stream->rest());
printf("A: ring not overrun: %s\n", $counters['ring_head'] < 100000 ? 'yes' : 'no');
printf("A: received == samples_written: %s\n", count($stream->samples) === $counters['samples_written'] ? 'yes' : 'no (' . count($stream->samples) . " of {$counters['samples_written']})");
printf("A: the last phase arrived: %s\n", isset(stat_test_histogram($stream->samples)['final_phase']) ? 'yes' : 'no');

/* B: the automatic sampler runs until RSHUTDOWN; stat.dump writes the whole ring after the stream closed */
$child = new StatChild(['stat.stream' => "$dir/b.sock", 'stat.samples' => '100000', 'stat.dump' => '3'], $script,
    [3 => ['file', "$dir/dump", 'w']]);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/b.sock");
$child->send("go\n");
var_dump($stream->readAll());
var_dump($child->wait());
[$dumped, $dumpLost, $dumpInvalid] = stat_test_decode(file_get_contents("$dir/dump"));
var_dump($stream->invalid, $stream->lost, $stream->rest(), $dumpLost, $dumpInvalid);
printf("B: dump has samples: %s\n", count($dumped) > 1000 ? 'yes' : 'no (' . count($dumped) . ')');
$fromStream = array_map('stat_stream_key', $stream->samples);
$fromDump = array_map('stat_stream_key', $dumped);
sort($fromStream);
sort($fromDump);
printf("B: the stream got exactly what the ring holds at exit: %s\n", $fromStream === $fromDump ? 'yes' : 'no (' . count($fromStream) . ' streamed, ' . count($fromDump) . ' dumped, ' . count(array_diff($fromDump, $fromStream)) . ' missing)');
printf("B: the last phase arrived: %s\n", isset(stat_test_histogram($stream->samples)['final_phase']) ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
array(0) {
}
array(0) {
}
string(0) ""
A: ring not overrun: yes
A: received == samples_written: yes
A: the last phase arrived: yes
bool(true)
bool(true)
int(0)
array(0) {
}
array(0) {
}
string(0) ""
array(0) {
}
array(0) {
}
B: dump has samples: yes
B: the stream got exactly what the ring holds at exit: yes
B: the last phase arrived: yes
