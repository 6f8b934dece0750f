--TEST--
stream: a tiny ring (stat.samples=16) read slowly: lost lines with positive counts, received + lost == written
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
/*
 * stat.auto=0: the sampler starts after the client connected (its cursor is
 * at 0) and is stopped before the child reads its counters, so the counters
 * are final: no sample is written after them.
 */
$script = <<<'PHP'
<?php
function fib(int $n): int { return $n < 2 ? $n : fib($n - 1) + fib($n - 2); }
/* at least $seconds and until $samples more samples were written (at most 20 s) */
function burn(float $seconds, int $samples): void {
    $start = microtime(true);
    $until = stat\counters()['samples_written'] + $samples;
    while ((microtime(true) - $start < $seconds || stat\counters()['samples_written'] < $until) && microtime(true) - $start < 20) {
        fib(15);
    }
}
echo "ready\n";
fgets(STDIN);
stat\sampler\activate();
burn(0.1, 50);
echo "paused\n";
burn(1.0, 8000); /* more than a client's 1 MiB buffer and the socket's hold */
stat\sampler\deactivate();
echo 'counters ', json_encode(stat\counters()), "\n";
echo "end\n";
fgets(STDIN); /* exit when the test closes stdin */
PHP;
$child = new StatChild(['stat.stream' => "$dir/stream.sock", 'stat.samples' => '16', 'stat.auto' => '0', 'stat.interval' => '100'], $script);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
/* read a little */
var_dump($stream->readUntil(fn($s) => count($s->samples) >= 5));
var_dump($child->waitFor("paused\n"));
/* then read nothing while the child works and its samples overrun the ring */
var_dump($child->waitFor("end\n"));
$counters = stat_stream_counters($child);
/*
 * then read the rest: the sampler has stopped, so everything written is
 * received or reported lost; read until that adds up (or the deadline),
 * before the child exits, so the bounded drain at exit plays no part
 */
var_dump($stream->readUntil(fn($s) => count($s->samples) + array_sum(array_column($s->lost, 'count')) >= $counters['samples_written']));
var_dump($child->wait());
var_dump($stream->readAll());

var_dump($stream->invalid, $stream->rest());
printf("lost lines: %s\n", count($stream->lost) > 0 ? 'yes' : 'no');
$bad = array_filter($stream->lost, fn($l) => !is_int($l['count'] ?? null) || $l['count'] <= 0 || !is_float($l['elapsed'] ?? null) && !is_int($l['elapsed'] ?? null));
var_dump(array_values($bad));
printf("lost line fields: %s\n", implode(',', array_keys($stream->lost[0] ?? [])));
$lost = array_sum(array_column($stream->lost, 'count'));
$received = count($stream->samples);
printf("samples received: %s\n", $received > 0 ? 'yes' : 'no');
printf("dropped by writers: %d\n", $counters['samples_dropped']);
printf("received + lost == written: %s\n", $received + $lost === $counters['samples_written'] ? 'yes' : "no ($received + $lost vs {$counters['samples_written']})");
/* samples_lost is not compared: the listener counts a loss only when this
 * client's cursor catches up, after the child printed its counters */
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
array(0) {
}
string(0) ""
lost lines: yes
array(0) {
}
lost line fields: type,count,elapsed,time
samples received: yes
dropped by writers: 0
received + lost == written: yes
