--TEST--
stream: every connection begins with one status line (time, version, listener, the live settings and counters under the keys of stat\settings() and stat\counters()); every sample and lost line carries its wall-clock time
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => "unix://$dir/control.sock",
    'stat.interval' => '200', 'stat.stack' => '32'], <<<'PHP'
<?php
echo json_encode(['settings' => array_keys(stat\settings()), 'counters' => array_keys(stat\counters()),
    'version' => phpversion('stat')]), "\n";
fgets(STDIN);
$start = microtime(true);
while (microtime(true) - $start < 0.4) {
    md5(str_repeat('x', 1000));
}
echo "done\n";
fgets(STDIN);
PHP);

var_dump($child->waitFor("}\n"));
$known = json_decode(trim($child->stdout()), true);
$before = microtime(true);
$stream = new StatStream("$dir/stream.sock");
var_dump($stream->readUntil(fn($s) => $s->status !== null, 10.0));
$after = microtime(true);
$status = $stream->status;

$top = array_keys($status);
printf("top keys: %s\n", implode(',', $top));
printf("time is when it connected: %s\n", $status['time'] >= $before - 0.05 && $status['time'] <= $after + 0.05 ? 'yes' : 'no');
printf("version: %s\n", $status['version'] === $known['version'] ? 'same as phpversion()' : $status['version']);
printf("listener: pid %s, started before now: %s\n", is_int($status['listener']['pid']) && $status['listener']['pid'] > 0 ? 'yes' : 'no',
    $status['listener']['started'] <= $status['time'] ? 'yes' : 'no');
/* every key stat\settings() has that a listener can know (not this process's own: sampling, listener) */
$missing = array_diff($known['settings'], array_keys($status['settings']), ['sampling', 'listener']);
printf("settings keys missing: [%s]\n", implode(',', $missing));
printf("settings: stack %d of at most %d, interval %d, stream %s\n", $status['settings']['stack'], $status['settings']['stack_max'],
    $status['settings']['interval'], $status['settings']['stream'] === "unix://$dir/stream.sock" ? 'named' : $status['settings']['stream']);
printf("counters keys missing: [%s]\n", implode(',', array_diff($known['counters'], array_keys($status['counters']))));
printf("this client counted: %s\n", $status['counters']['clients_connected'] >= 1 ? 'yes' : 'no');

$child->send("go\n");
var_dump($child->waitFor("done\n"));
$end = microtime(true);
var_dump($stream->readUntil(fn($s) => count($s->samples) >= 500, 10.0));
$times = array_column($stream->samples, 'time');
printf("every sample has time: %s\n", count($times) === count($stream->samples) ? 'yes' : 'no');
/* time and elapsed are two clocks of one instant: their difference is constant */
$offsets = array_map(fn($s) => $s['time'] - $s['elapsed'], $stream->samples);
printf("time - elapsed constant within 10 ms: %s\n", max($offsets) - min($offsets) < 0.01 ? 'yes' : 'no');
printf("times within the run: %s\n", min($times) >= $before - 1.0 && max($times) <= $end + 0.05 ? 'yes' : 'no');
/* as written: "time" right after "elapsed", both with six decimals */
$raw = stat_test_connect("$dir/stream.sock");
stream_set_timeout($raw, 10);
$first = fgets($raw);
$second = fgets($raw);
fclose($raw);
printf("raw status line: %s\n", preg_match('/^\{"type":"status","time":\d{10}\.\d{6},"elapsed":\d+\.\d{6},/', $first) ? 'ok' : $first);
printf("raw sample: %s\n", preg_match('/"elapsed":\d+\.\d{6},"time":\d{10}\.\d{6},/', $second) ? 'ok' : $second);
printf("one status line only: %s\n", count(array_filter($stream->samples, fn($s) => $s['type'] === 'status')) === 0 ? 'yes' : 'no');
$child->send("end\n");
var_dump($child->wait());
var_dump($stream->readAll());
var_dump($stream->invalid);
?>
--EXPECT--
bool(true)
bool(true)
top keys: type,time,elapsed,version,listener,settings,counters
time is when it connected: yes
version: same as phpversion()
listener: pid yes, started before now: yes
settings keys missing: []
settings: stack 32 of at most 32, interval 200, stream named
counters keys missing: []
this client counted: yes
bool(true)
bool(true)
every sample has time: yes
time - elapsed constant within 10 ms: yes
times within the run: yes
raw status line: ok
raw sample: ok
one status line only: yes
int(0)
bool(true)
array(0) {
}
