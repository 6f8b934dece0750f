--TEST--
stream: two clients at once receive the same samples, including the backlog already in the ring
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
/* a ring that holds the whole run (about 2 s at 100us), so nothing is overwritten */
$script = str_replace("echo \"ready\\n\";", <<<'PHP'
/* until 300 samples are in the ring (the sampler may get little CPU on a busy machine) */
function before_connect(): void {
    $start = microtime(true);
    $t = 0;
    while (stat\counters()['samples_written'] < 300 && microtime(true) - $start < 20) {
        for ($i = 0; $i < 500; $i++) { $t += $i * $i; }
    }
}
before_connect();
echo "ready\n";
PHP, stat_stream_cpu_script(0.5));
$child = new StatChild(['stat.stream' => "$dir/stream.sock", 'stat.samples' => '50000', 'stat.interval' => '100'], $script);
var_dump($child->waitFor("ready\n"));
$a = new StatStream("$dir/stream.sock");
$b = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump(stat_stream_read_while($child, [$a, $b], "end\n"));
/* every sample written, then the exit and EOF */
[$complete, $code, $eof] = stat_stream_finish($child, [$a, $b]);
var_dump($code);
var_dump($complete && $eof);
$counters = stat_stream_counters($child);

foreach (['a' => $a, 'b' => $b] as $name => $stream) {
    printf("%s: invalid %d, lost lines %d, rest %d bytes\n", $name, count($stream->invalid), count($stream->lost), strlen($stream->rest()));
    $seen = stat_test_histogram($stream->samples);
    printf("%s: backlog (before_connect) received: %s\n", $name, isset($seen['before_connect']) ? 'yes' : 'no');
    printf("%s: live (Worker::fib) received: %s\n", $name, isset($seen['Worker::fib']) ? 'yes' : 'no');
    printf("%s: every sample written received: %s\n", $name, count($stream->samples) === $counters['samples_written'] ? 'yes' : 'no (' . count($stream->samples) . " of {$counters['samples_written']})");
}
$keysA = array_map('stat_stream_key', $a->samples);
$keysB = array_map('stat_stream_key', $b->samples);
printf("no duplicates: %s\n", count(array_unique($keysA)) === count($keysA) && count(array_unique($keysB)) === count($keysB) ? 'yes' : 'no');
sort($keysA);
sort($keysB);
printf("same samples: %s\n", $keysA === $keysB ? 'yes' : 'no (' . count(array_diff($keysA, $keysB)) . ' only in a, ' . count(array_diff($keysB, $keysA)) . ' only in b)');
printf("ring not overrun: %s\n", $counters['ring_head'] < 50000 ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
bool(true)
a: invalid 0, lost lines 0, rest 0 bytes
a: backlog (before_connect) received: yes
a: live (Worker::fib) received: yes
a: every sample written received: yes
b: invalid 0, lost lines 0, rest 0 bytes
b: backlog (before_connect) received: yes
b: live (Worker::fib) received: yes
b: every sample written received: yes
no duplicates: yes
same samples: yes
ring not overrun: yes
