--TEST--
stream: after a quiet spell in which the listener sleeps, a new request's first sample wakes it and reaches the client promptly (five times over)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

/*
 * The listener sleeps with no timer while no sample comes (issue 28); the
 * first writer after it fell asleep rings the ring's bell. A lost wake-up
 * would leave that sample in the ring until the listener's heartbeat round
 * (up to a second), so each burst's first sample is timed from when it was
 * taken to when this process read it, against a bound loose enough for a
 * loaded machine (500 ms), over five quiet spells: a listener that never
 * heard the bell would be late about half the time.
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
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '1000'], <<<'PHP'
<?php
echo "ready\n";
while (($line = fgets(STDIN)) !== false && trim($line) === 'go') {
    stat\sampler\activate();
    $start = microtime(true);
    $before = stat\counters()['samples_written'];
    while (microtime(true) - $start < 0.05 || stat\counters()['samples_written'] < $before + 5) {
        md5(str_repeat('x', 1000));
    }
    stat\sampler\deactivate();
    echo "burst\n";
}
PHP);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
var_dump($stream->readUntil(fn($s) => $s->status !== null, 10.0));
$pid = $stream->status['listener']['pid'];

$late = [];
$quiet = 0;
for ($burst = 1; $burst <= 5; $burst++) {
    /* a quiet spell: nothing is sampled, the listener falls asleep (a plain sleep: there is nothing to wait for) */
    $before = switches($pid);
    usleep(300000);
    $quiet += switches($pid) - $before;

    $go = microtime(true);
    $seen = count($stream->samples);
    $child->send("go\n");
    $first = null;
    $arrived = null;
    $stream->readUntil(function ($s) use (&$first, &$arrived, $go, $seen) {
        for ($i = $seen; $i < count($s->samples); $i++) {
            if ($s->samples[$i]['time'] >= $go) {
                $first = $s->samples[$i]['time'];
                $arrived = microtime(true);
                return true;
            }
        }
        return false;
    }, 10.0);
    $late[] = $first === null ? INF : $arrived - $first;
    if (!$child->waitFor(str_repeat("burst\n", $burst), 10.0)) {
        break;
    }
    /* the rest of the burst, so that the next quiet spell starts quiet */
    $stream->readUntil(fn($s) => false, 0.05);
}
printf("bursts: %d\n", count($late));
printf("each burst's first sample within 500 ms: %s\n", max($late) <= 0.5 ? 'yes' : implode(', ', array_map(fn($l) => sprintf('%.3f s', $l), $late)));
printf("the listener slept in the quiet spells: %s\n", $quiet <= 5 * 4 ? 'yes' : "$quiet context switches");
$child->send("end\n");
var_dump($child->wait());
var_dump($stream->readAll());
var_dump(count($stream->invalid), array_sum(array_column($stream->lost, 'count')));
?>
--EXPECT--
bool(true)
bool(true)
bursts: 5
each burst's first sample within 500 ms: yes
the listener slept in the quiet spells: yes
int(0)
bool(true)
int(0)
int(0)
