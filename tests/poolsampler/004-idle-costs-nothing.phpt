--TEST--
poolsampler: with no request sampled the pool sampler sleeps without a timer (no more than a handful of wake-ups in a second, where it ticks 1,000 times a second while it samples), and a request started then wakes it and is sampled; a process that ended is let go
--SKIPIF--
<?php require __DIR__ . '/poolsampler.inc'; if ($why = stat_poolsampler_skip()) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';

$dir = stat_test_dir();
$script = "<?php\n" . stat_poolsampler_busy('busy') . <<<'PHP'
$pool = stat\settings()['pool']['pid'] ?? 0;
$switches = function () use ($pool) {
    $status = (string) @file_get_contents("/proc/$pool/status");
    preg_match('/^voluntary_ctxt_switches:\s+(\d+)/m', $status, $a);
    preg_match('/^nonvoluntary_ctxt_switches:\s+(\d+)/m', $status, $b);
    return (int) ($a[1] ?? -1) + (int) ($b[1] ?? 0);
};
/* a forked child sampled a moment, then gone */
$pid = pcntl_fork();
if ($pid === 0) {
    busy(0.2);
    exit(0);
}
busy(0.3);
pcntl_waitpid($pid, $status);
echo "pool $pool child $pid\n";
/* sampled: the pool sampler ticks */
$a = $switches();
busy(0.5);
$busy = $switches() - $a;
/* idle: nothing sampled for a second */
stat\sampler\deactivate();
usleep(100000);
$a = $switches();
usleep(1000000);
$idle = $switches() - $a;
/* a request again: it wakes the pool sampler, which samples it (busy until 5 samples, 20 s at most) */
$before = stat\counters()['samples_written'];
stat\sampler\activate();
$end = hrtime(true) + 20e9;
while (stat\counters()['samples_written'] < $before + 5 && hrtime(true) < $end) {
    busy(0.01);
}
$woke = stat\counters()['samples_written'] - $before;
echo json_encode(['busy' => $busy, 'idle' => $idle, 'woke' => $woke]), "\n";
fgets(STDIN);
PHP;
$child = new StatChild(['stat.dump' => '3', 'stat.sampler' => 'pool', 'stat.interval' => '1000'], $script, [3 => ['file', '/dev/null', 'w']]);
var_dump($child->waitFor("}\n", 60));
preg_match('/^pool (\d+) child (\d+)$/m', $child->stdout(), $m);
[$pool, $forked] = [(int) ($m[1] ?? 0), (int) ($m[2] ?? 0)];
$seen = json_decode(explode("\n", trim($child->stdout()))[1] ?? '', true) ?: [];
printf("ticks while sampling: %s\n", ($seen['busy'] ?? 0) >= 100 ? 'yes' : json_encode($seen));
printf("wake-ups in an idle second: %s\n", ($seen['idle'] ?? 99) >= 0 && ($seen['idle'] ?? 99) <= 5 ? 'at most 5' : json_encode($seen));
printf("woken and sampling after: %s\n", ($seen['woke'] ?? 0) >= 5 ? 'yes' : json_encode($seen));
$held = stat_poolsampler_held($pool);
printf("the ended child let go, the parent held: %s\n", !in_array($forked, $held, true) && in_array($child->pid(), $held, true) ? 'yes' : json_encode([$forked, $child->pid(), $held]));
$child->send("end\n");
var_dump($child->wait(), $child->stderr());
?>
--EXPECT--
bool(true)
ticks while sampling: yes
wake-ups in an idle second: at most 5
woken and sampling after: yes
the ended child let go, the parent held: yes
int(0)
string(0) ""
