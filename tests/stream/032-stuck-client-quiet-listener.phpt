--TEST--
stream: with samples flowing to a client that does not read (its buffer full), the listener does not wake for each sample, nor every 2 ms: it waits for the client's socket
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

/*
 * A client whose buffer is full can take nothing from the ring until its
 * socket takes more, so the listener must not arm the ring's bell for it (a
 * bell armed every round would be rung by every sample: thousands of
 * wake-ups a second at stat.interval=100) nor poll on a timer for it. Counted,
 * not timed: the listener's context switches over half-second windows while
 * the child samples, until one window has a handful (the first ones fill the
 * buffers); the child keeps sampling until the test says stop.
 */
function switches(int $pid): int
{
    $total = 0;
    foreach (glob("/proc/$pid/task/*/status") ?: [] as $file) {
        $text = @file_get_contents($file);
        if ($text !== false && preg_match_all('/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/m', $text, $m)) {
            $total += array_sum($m[1]);
        }
    }
    return $total;
}

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '100'], <<<'PHP'
<?php
echo "ready\n";
fgets(STDIN);
stat\sampler\activate();
$in = fopen('php://stdin', 'r');
stream_set_blocking($in, false);
$start = microtime(true);
while (fgets($in) === false && microtime(true) - $start < 20) {
    md5(str_repeat('x', 1000));
}
stat\sampler\deactivate();
echo 'counters ', json_encode(stat\counters()), "\n";
fgets(STDIN);
PHP);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
var_dump($stream->readUntil(fn($s) => $s->status !== null, 10.0));
$pid = $stream->status['listener']['pid'];

/* from here on the client reads nothing */
$child->send("go\n");
$quiet = null;
$windows = 0;
$deadline = microtime(true) + 15;
while ($quiet === null && microtime(true) < $deadline) {
    $before = switches($pid);
    usleep(500000); /* a window being counted: nothing to poll for */
    $grew = switches($pid) - $before;
    $windows++;
    if ($grew <= 10) {
        $quiet = $grew;
    }
}
$child->send("stop\n");
var_dump($child->waitFor("}\n", 10.0));
$counters = stat_stream_counters($child);
printf("a half second with a handful of listener wake-ups while sampling: %s\n", $quiet !== null ? 'yes' : "no ($windows windows)");
printf("samples kept flowing: %s\n", ($counters['samples_written'] ?? 0) > 1000 ? 'yes' : json_encode($counters));
$child->send("end\n");
var_dump($child->wait());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
a half second with a handful of listener wake-ups while sampling: yes
samples kept flowing: yes
int(0)
