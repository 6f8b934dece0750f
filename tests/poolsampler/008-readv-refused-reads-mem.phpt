--TEST--
poolsampler: where process_vm_readv is refused, a worker is read through the /proc/PID/mem descriptor it handed over: root without CAP_SYS_PTRACE (a container's default) with a worker that left root and is dumpable again (what php-fpm's process.dumpable = yes does; here FFI's prctl()): the worker is counted in processes_mem and sampled right, with no pidfd of it held, while the parent, the pool sampler's own user, is read by pid
--SKIPIF--
<?php
require __DIR__ . '/poolsampler.inc';
if ($why = stat_poolsampler_readv_skip()) die("skip $why");
if (!stat_poolsampler_root()) die('skip needs root (a worker that leaves root for another user)');
if (stat_poolsampler_no_ptrace() === null) die('skip needs setpriv (util-linux) to drop CAP_SYS_PTRACE');
if (!extension_loaded('ffi') && !is_file(PHP_EXTENSION_DIR . '/ffi.so')) die('skip needs the FFI extension (prctl, setuid)');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';

$dir = stat_test_dir();
$script = "<?php\n" . stat_poolsampler_busy('parent_p') . stat_poolsampler_busy('mem_worker') . stat_poolsampler_pidfds_code() . <<<'PHP'
/* (not /proc/self: PHP's realpath cache would keep the parent's for the worker) */
$status = fn() => (string) file_get_contents('/proc/' . getmypid() . '/status');
/* CAP_SYS_PTRACE is bit 19 of the effective set */
$ptrace = preg_match('/^CapEff:\s+([0-9a-f]+)$/m', $status(), $m) && (hexdec(substr($m[1], -8)) >> 19) & 1;
$pool = stat\settings()['pool']['pid'] ?? 0;
echo "ready\n";
fgets(STDIN);
/* (forked before either is sampled: the worker hands its memory over once it left root) */
$pid = pcntl_fork();
if ($pid === 0) {
    $libc = FFI::cdef('int setgroups(size_t size, const unsigned int *list); int setgid(unsigned int gid); int setuid(unsigned int uid);'
        . ' int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5);', 'libc.so.6');
    /* nobody: a user change leaves the process not dumpable; PR_SET_DUMPABLE (4) makes it so again */
    $left = $libc->setgroups(0, null) === 0 && $libc->setgid(65534) === 0 && $libc->setuid(65534) === 0;
    $dumpable = $libc->prctl(4, 1, 0, 0, 0) === 0;
    stat\sampler\activate();
    mem_worker(0.8);
    stat\sampler\deactivate();
    preg_match('/^Uid:\s+(\d+)/m', $status(), $uid);
    echo "worker ", json_encode(['pid' => getmypid(), 'left' => $left && ($uid[1] ?? '') === '65534', 'dumpable' => $dumpable]), "\n";
    exit(0);
}
stat\sampler\activate();
parent_p(0.3);
/* while the worker runs: what the pool sampler holds of each */
$seen = ['pidfds' => $pidfds($pool), 'held' => $held($pool)];
parent_p(0.5);
pcntl_waitpid($pid, $exit);
stat\sampler\deactivate();
$c = stat\counters();
echo "parent ", json_encode(['pid' => getmypid(), 'worker' => $pid, 'ptrace' => (bool) $ptrace, 'readv' => $c['processes_readv'] ?? null,
    'mem' => $c['processes_mem'] ?? null, 'unreadable' => $c['samples_unreadable']] + $seen), "\n";
echo "done\n";
PHP;
$ini = ['stat.stream' => "unix://$dir/stream.sock", 'stat.sampler' => 'pool', 'stat.interval' => '1000', 'stat.auto' => '0', 'ffi.enable' => '1'];
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
printf("no CAP_SYS_PTRACE: %s\n", ($parent['ptrace'] ?? true) === false ? 'yes' : $child->stdout());
printf("the worker left root, dumpable: %s\n", ($worker['left'] ?? false) && ($worker['dumpable'] ?? false) ? 'yes' : $child->stdout());
printf("the worker read through /proc/PID/mem, the parent by pid: %s\n",
    ($parent['mem'] ?? null) === 1 && ($parent['readv'] ?? null) === 1 && ($parent['unreadable'] ?? null) === 0 ? 'yes' : $child->stdout());
printf("a pidfd of the parent only: %s\n", ($parent['pidfds'] ?? null) === [$parent['pid'] ?? 0] ? 'yes' : $child->stdout());
printf("the worker's /proc/PID/mem held: %s\n", in_array($worker['pid'] ?? 0, $parent['held'] ?? [], true) ? 'yes' : $child->stdout());

/* each process's samples: at least 100 (0.8 s at 1 ms), nearly all in its own function (or in hrtime() under it) */
foreach (['mem_worker' => $worker['pid'] ?? 0, 'parent_p' => $parent['pid'] ?? 0] as $function => $pid) {
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
no CAP_SYS_PTRACE: yes
the worker left root, dumpable: yes
the worker read through /proc/PID/mem, the parent by pid: yes
a pidfd of the parent only: yes
the worker's /proc/PID/mem held: yes
mem_worker: sampled in its function
parent_p: sampled in its function
invalid lines: 0
