--TEST--
poolsampler: a worker read with process_vm_readv that process_vm_readv may no longer read (it left root for another user, under a pool sampler without CAP_SYS_PTRACE) is read through its /proc/PID/mem descriptor from then on: counted once in each of processes_readv and processes_mem, its pidfd closed, a failed read or so at the change, and sampled right after it
--SKIPIF--
<?php
require __DIR__ . '/poolsampler.inc';
if ($why = stat_poolsampler_readv_skip()) die("skip $why");
if (!stat_poolsampler_root()) die('skip needs root (a worker that leaves root for another user)');
if (stat_poolsampler_no_ptrace() === null) die('skip needs setpriv (util-linux) to drop CAP_SYS_PTRACE');
if (!extension_loaded('ffi') && !is_file(PHP_EXTENSION_DIR . '/ffi.so')) die('skip needs the FFI extension (setuid)');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';

$dir = stat_test_dir();
$script = "<?php\n" . stat_poolsampler_busy('parent_p') . stat_poolsampler_busy('as_root') . stat_poolsampler_busy('as_nobody')
    . stat_poolsampler_pidfds_code() . <<<'PHP'
$pool = stat\settings()['pool']['pid'] ?? 0;
echo "ready\n";
fgets(STDIN);
/* the child of a sampled request: handed over at the fork, read by pid (root, as the pool sampler) */
$pid = pcntl_fork();
if ($pid === 0) {
    as_root(0.4);
    $libc = FFI::cdef('int setgroups(size_t size, const unsigned int *list); int setgid(unsigned int gid); int setuid(unsigned int uid);', 'libc.so.6');
    $left = $libc->setgroups(0, null) === 0 && $libc->setgid(65534) === 0 && $libc->setuid(65534) === 0;
    as_nobody(0.6);
    echo "worker ", json_encode(['pid' => getmypid(), 'left' => $left]), "\n";
    exit(0);
}
parent_p(0.2);
$before = ['pidfds' => $pidfds($pool), 'failed' => stat\counters()['samples_failed']];
parent_p(0.6);
$after = ['pidfds' => $pidfds($pool), 'held' => $held($pool)];
parent_p(0.2);
pcntl_waitpid($pid, $exit);
$c = stat\counters();
echo "parent ", json_encode(['pid' => getmypid(), 'worker' => $pid, 'readv' => $c['processes_readv'] ?? null, 'mem' => $c['processes_mem'] ?? null,
    'failed' => $c['samples_failed'] - $before['failed'], 'before' => $before['pidfds']] + $after), "\n";
echo "done\n";
PHP;
$ini = ['stat.stream' => "unix://$dir/stream.sock", 'stat.sampler' => 'pool', 'stat.interval' => '1000', 'ffi.enable' => '1'];
if (!extension_loaded('ffi')) {
    $ini['extension'] = PHP_EXTENSION_DIR . '/ffi.so';
}
$child = new StatChild($ini, $script, [], [], stat_poolsampler_no_ptrace());
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump(stat_stream_read_while($child, [$stream], "done\n"));
$stream->readUntil(fn() => false, 0.3);
var_dump($child->wait(), $child->stderr());

preg_match('/^parent (\{.*\})$/m', $child->stdout(), $m);
$parent = json_decode($m[1] ?? '', true) ?: [];
preg_match('/^worker (\{.*\})$/m', $child->stdout(), $m);
$worker = json_decode($m[1] ?? '', true) ?: [];
$both = [$parent['pid'] ?? 0, $worker['pid'] ?? 0];
sort($both);
printf("the worker left root: %s\n", ($worker['left'] ?? false) ? 'yes' : $child->stdout());
printf("read by pid, then through /proc/PID/mem: %s\n", ($parent['readv'] ?? null) === 2 && ($parent['mem'] ?? null) === 1 ? 'yes' : $child->stdout());
printf("its pidfd held, then not: %s\n", ($parent['before'] ?? null) === $both && ($parent['pidfds'] ?? null) === [$parent['pid'] ?? 0] ? 'yes' : $child->stdout());
printf("its /proc/PID/mem held: %s\n", in_array($worker['pid'] ?? 0, $parent['held'] ?? [], true) ? 'yes' : $child->stdout());
printf("a failed read or so at the change: %s\n", ($parent['failed'] ?? 99) <= 3 ? 'yes' : $child->stdout());

/* the worker's samples after the change: at least 100 (0.6 s at 1 ms), nearly all in as_nobody (or in hrtime() under it) */
$mine = array_filter($stream->samples, fn($s) => $s['request']['pid'] === ($worker['pid'] ?? 0) && stat_test_symbol($s) !== 'as_root');
$histogram = stat_test_histogram($mine);
$in = ($histogram['as_nobody'] ?? 0) + ($histogram['hrtime'] ?? 0);
printf("as_nobody: %s\n", count($mine) >= 100 && $in >= 0.9 * count($mine) ? 'sampled in its function' : json_encode([count($mine), $histogram]));
printf("invalid lines: %d\n", count($stream->invalid));
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
the worker left root: yes
read by pid, then through /proc/PID/mem: yes
its pidfd held, then not: yes
its /proc/PID/mem held: yes
a failed read or so at the change: yes
as_nobody: sampled in its function
invalid lines: 0
