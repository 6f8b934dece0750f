--TEST--
poolsampler: only pcntl_fork() children are sampled like their parent: the child proc_open() forks (and execs another program at once) takes no place, is never read and costs no failed read, while the request that ran it is sampled throughout
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
busy(0.1);
$before = stat\counters();
$process = proc_open(['sleep', '1'], [], $pipes);
$child = proc_get_status($process)['pid'];
busy(0.5);
$held = [];
foreach (glob("/proc/$pool/fd/*") ?: [] as $fd) {
    if (preg_match('#^/proc/(\d+)/mem$#', (string) @readlink($fd), $m)) {
        $held[] = (int) $m[1];
    }
}
$after = stat\counters();
proc_close($process);
echo json_encode(['self' => getmypid(), 'child' => $child, 'held' => $held,
    'failed' => $after['samples_failed'] - $before['samples_failed'], 'unreadable' => $after['samples_unreadable'] - $before['samples_unreadable'],
    'written' => $after['samples_written'] - $before['samples_written'], 'missed' => $after['ticks_missed'] - $before['ticks_missed'],
    'active' => stat\settings()['pool']['active']]), "\n";
PHP;
$child = new StatChild(['stat.dump' => '3', 'stat.sampler' => 'pool', 'stat.interval' => '1000'], $script, [3 => ['file', '/dev/null', 'w']]);
var_dump($child->wait(), $child->stderr());
$seen = json_decode($child->stdout(), true) ?: [];
printf("the proc_open() child never held: %s\n", isset($seen['child']) && !in_array($seen['child'], $seen['held'], true) && in_array($seen['self'], $seen['held'], true) ? 'yes' : $child->stdout());
printf("no failed or unreadable sample: %s\n", ($seen['failed'] ?? -1) === 0 && ($seen['unreadable'] ?? -1) === 0 ? 'yes' : $child->stdout());
/*
 * 0.5 s at 1 ms: ~500 intervals, each a sample or a tick missed (a pool
 * sampler starved by a busy machine took 99 samples and missed the rest)
 */
printf("one request sampled, sampled throughout: %s\n", ($seen['active'] ?? 0) === 1 && ($seen['written'] ?? 0) >= 50 &&
    ($seen['written'] ?? 0) + ($seen['missed'] ?? 0) >= 400 ? 'yes' : $child->stdout());
?>
--EXPECT--
int(0)
string(0) ""
the proc_open() child never held: yes
no failed or unreadable sample: yes
one request sampled, sampled throughout: yes
