--TEST--
poolsampler: a worker killed (SIGKILL) while it is sampled is a failed read at worst, even while it is a zombie (not yet reaped: kill(pid, 0) still finds it): the pool sampler lets its descriptor go, takes its place back and goes on sampling the others, without a failed read a tick
--SKIPIF--
<?php require __DIR__ . '/poolsampler.inc'; if ($why = stat_poolsampler_skip()) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';
require __DIR__ . '/../pool/pool.inc';

$dir = stat_test_dir();
$script = "<?php\n" . stat_poolsampler_busy('parent_p') . stat_poolsampler_busy('victim') . <<<'PHP'
$pid = pcntl_fork();
if ($pid === 0) {
    victim(60);
    exit(0);
}
echo "pool ", stat\settings()['pool']['pid'] ?? 0, " victim $pid\n";
/* busy until told (the victim killed and let go, still unreaped: a zombie), then a little more */
stream_set_blocking(STDIN, false);
while (fgets(STDIN) === false) {
    parent_p(0.01);
}
$failed = stat\counters()['samples_failed'];
parent_p(0.3);
echo "failed reads in 0.3 s beside the zombie: ", stat\counters()['samples_failed'] - $failed, "\n";
pcntl_waitpid($pid, $status);
echo "victim ", pcntl_wifsignaled($status) ? 'killed by ' . pcntl_wtermsig($status) : 'exited', "\n";
$before = stat\counters()['samples_written'];
parent_p(0.3);
echo "done\n";
PHP;
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.sampler' => 'pool', 'stat.interval' => '500'], $script);
var_dump($child->waitFor("victim "));
$stream = new StatStream("$dir/stream.sock");
preg_match('/^pool (\d+) victim (\d+)$/m', $child->stdout(), $m);
[$pool, $victim] = [(int) ($m[1] ?? 0), (int) ($m[2] ?? 0)];
printf("pool sampler and victim: %s\n", $pool > 0 && $victim > 0 ? 'yes' : 'no');

/* the victim is sampled, then killed in the middle of it */
$stream->readUntil(fn($s) => count(array_filter($s->samples, fn($x) => $x['request']['pid'] === $victim)) >= 200);
printf("victim sampled: %s\n", in_array($victim, stat_poolsampler_held($pool), true) ? 'yes, its memory held' : 'no');
stat_pool_kill($victim, SIGKILL);
/* (the parent reaps it only after "go": until then it is a zombie) */
$zombie = fn() => str_contains((string) @file_get_contents("/proc/$victim/stat"), ') Z ');
$let = stat_test_until(fn() => $zombie() && !in_array($victim, stat_poolsampler_held($pool), true));
printf("its descriptor let go while a zombie: %s\n", $let ? 'yes' : 'no: ' . json_encode([stat_poolsampler_held($pool), @file_get_contents("/proc/$victim/stat")]));
$child->send("go\n");
var_dump(stat_stream_read_while($child, [$stream], "done\n"));
var_dump($child->wait(), $child->stderr());
echo preg_replace('/^pool .*\n/m', '', $child->stdout());
/* the parent's samples after the kill: the pool sampler went on */
$killedAt = null;
foreach ($stream->samples as $s) {
    if ($s['request']['pid'] === $victim) {
        $killedAt = max($killedAt ?? 0, $s['time']);
    }
}
$after = array_filter($stream->samples, fn($s) => $s['request']['pid'] === $child->pid() && $s['time'] > $killedAt);
printf("the parent sampled after: %s\n", count($after) >= 50 ? 'yes' : 'no (' . count($after) . ')');
printf("invalid lines: %d\n", count($stream->invalid));
?>
--EXPECT--
bool(true)
pool sampler and victim: yes
victim sampled: yes, its memory held
its descriptor let go while a zombie: yes
bool(true)
int(0)
string(0) ""
failed reads in 0.3 s beside the zombie: 0
victim killed by 9
done
the parent sampled after: yes
invalid lines: 0
