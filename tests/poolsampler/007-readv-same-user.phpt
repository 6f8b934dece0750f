--TEST--
poolsampler: processes of the pool sampler's own user, dumpable (a CLI parent and two pcntl_fork() workers), are read with process_vm_readv of their pid: counted once each in processes_readv (none in processes_mem), a pidfd of each held beside its /proc/PID/mem descriptor; their samples are right (each worker's in its own function)
--SKIPIF--
<?php require __DIR__ . '/poolsampler.inc'; if ($why = stat_poolsampler_readv_skip()) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';

$dir = stat_test_dir();
$script = "<?php\n" . stat_poolsampler_busy('parent_p') . stat_poolsampler_busy('readv_a') . stat_poolsampler_busy('readv_b')
    . stat_poolsampler_pidfds_code() . <<<'PHP'
$pool = stat\settings()['pool']['pid'] ?? 0;
echo "ready\n";
fgets(STDIN);
$pids = [];
foreach (['readv_a', 'readv_b'] as $f) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $f(0.8);
        exit(0);
    }
    $pids[] = $pid;
}
parent_p(0.3);
/* while the workers run: what the pool sampler holds of each */
$seen = ['pidfds' => $pidfds($pool), 'held' => $held($pool)];
parent_p(0.5);
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
$c = stat\counters();
echo json_encode(['parent' => getmypid(), 'workers' => $pids, 'readv' => $c['processes_readv'] ?? null,
    'mem' => $c['processes_mem'] ?? null, 'unreadable' => $c['samples_unreadable']] + $seen), "\n";
echo "done\n";
PHP;
/* (as root, without CAP_SYS_PTRACE where setpriv can drop it: read by pid as the same user, not by the capability) */
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.sampler' => 'pool', 'stat.interval' => '1000'], $script,
    [], [], stat_poolsampler_no_ptrace() ?? []);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump(stat_stream_read_while($child, [$stream], "done\n"));
$stream->readUntil(fn() => false, 0.3);
var_dump($child->wait(), $child->stderr());

preg_match('/^(\{.*\})$/m', $child->stdout(), $m);
$seen = json_decode($m[1] ?? '', true) ?: [];
$all = array_merge([$seen['parent'] ?? 0], $seen['workers'] ?? []);
printf("three processes read by process_vm_readv, none through /proc/PID/mem: %s\n",
    ($seen['readv'] ?? null) === 3 && ($seen['mem'] ?? null) === 0 && ($seen['unreadable'] ?? null) === 0 ? 'yes' : $child->stdout());
printf("a pidfd of each held: %s\n", count($all) === 3 && !array_diff($all, $seen['pidfds'] ?? []) ? 'yes' : $child->stdout());
printf("and its /proc/PID/mem descriptor: %s\n", count($all) === 3 && !array_diff($all, $seen['held'] ?? []) ? 'yes' : $child->stdout());

/* each worker's samples: at least 100 (0.8 s at 1 ms), nearly all in its own function (or in hrtime() under it) */
foreach (['readv_a' => $seen['workers'][0] ?? 0, 'readv_b' => $seen['workers'][1] ?? 0] as $function => $pid) {
    $mine = array_filter($stream->samples, fn($s) => $s['request']['pid'] === $pid);
    $histogram = stat_test_histogram($mine);
    $in = ($histogram[$function] ?? 0) + ($histogram['hrtime'] ?? 0);
    printf("%s: %s\n", $function, count($mine) >= 100 && $in >= 0.9 * count($mine) ? 'sampled in its function' : json_encode([count($mine), $histogram]));
}
printf("invalid lines: %d\n", count($stream->invalid));
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
three processes read by process_vm_readv, none through /proc/PID/mem: yes
a pidfd of each held: yes
and its /proc/PID/mem descriptor: yes
readv_a: sampled in its function
readv_b: sampled in its function
invalid lines: 0
