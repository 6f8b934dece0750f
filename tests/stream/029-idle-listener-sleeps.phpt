--TEST--
stream: with a stream client connected and nothing sampled, the listener sleeps (no 2 ms tick): its threads are switched in no more than a handful of times in a second
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

/*
 * Issue 28: the listener used to poll every 2 ms while a stream client was
 * connected, samples or not (some 500 wake-ups a second). Now it sleeps until
 * a sampler rings the ring's bell; what is left is its heartbeat (a round a
 * second) and the clients' own traffic. Counted, not timed: the voluntary and
 * involuntary context switches of every thread of the listener process over
 * a second in which nothing is sampled.
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
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0'], <<<'PHP'
<?php
echo "ready\n";
fgets(STDIN);
PHP);
var_dump($child->waitFor("ready\n"));

$stream = new StatStream("$dir/stream.sock");
var_dump($stream->readUntil(fn($s) => $s->status !== null, 10.0));
$pid = $stream->status['listener']['pid'];
printf("listener threads seen: %s\n", switches($pid) > 0 ? 'yes' : 'no');

/* let the connection settle (its accept and the status line are a few rounds) */
usleep(200000);
$before = switches($pid);
/* the quiet second being measured: nothing to poll for, so a plain sleep */
usleep(1000000);
$after = switches($pid);
$grew = $after - $before;
printf("context switches in a quiet second: %s\n", $grew <= 8 ? "a handful" : "$grew");
printf("samples: %d\n", count($stream->samples));

$child->send("end\n");
var_dump($child->wait());
var_dump($stream->readAll());
?>
--EXPECT--
bool(true)
bool(true)
listener threads seen: yes
context switches in a quiet second: a handful
samples: 0
int(0)
bool(true)
