--TEST--
poolsampler: the setup the README's php-fpm example rests on: a pool sampler that is root with CAP_SYS_PTRACE (as systemd starts php-fpm) and a worker that left root and is not dumpable (as php-fpm's workers): the worker is read by pid, sampled right, nothing counted unreadable and nothing in PHP's error log
--SKIPIF--
<?php
require __DIR__ . '/poolsampler.inc';
if ($why = stat_poolsampler_skip()) die("skip $why");
if (!stat_poolsampler_root()) die('skip needs root (a worker that leaves root for another user)');
if (!preg_match('/^CapEff:\s+([0-9a-f]+)$/m', (string) file_get_contents('/proc/self/status'), $m) || !((hexdec(substr($m[1], -8)) >> 19) & 1)) die('skip needs CAP_SYS_PTRACE');
if (!extension_loaded('ffi') && !is_file(PHP_EXTENSION_DIR . '/ffi.so')) die('skip needs the FFI extension (setuid)');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';

$dir = stat_test_dir();
/* the worker, nobody by then, would write to it too (the test's directory is 0700: nobody may only pass through) */
chmod($dir, 0711);
$log = "$dir/php-errors.log";
touch($log);
chmod($log, 0666);
$script = "<?php\n" . stat_poolsampler_busy('parent_p') . stat_poolsampler_busy('hidden_worker') . <<<'PHP'
/* (not /proc/self: PHP's realpath cache would keep the parent's for the worker) */
$status = fn() => (string) file_get_contents('/proc/' . getmypid() . '/status');
/* CAP_SYS_PTRACE is bit 19 of the effective set */
$ptrace = preg_match('/^CapEff:\s+([0-9a-f]+)$/m', $status(), $m) && (hexdec(substr($m[1], -8)) >> 19) & 1;
echo "ready\n";
fgets(STDIN);
$pid = pcntl_fork();
if ($pid === 0) {
    $libc = FFI::cdef('int setgroups(size_t size, const unsigned int *list); int setgid(unsigned int gid); int setuid(unsigned int uid);'
        . ' int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5);', 'libc.so.6');
    /* nobody: a user change leaves the process not dumpable (PR_GET_DUMPABLE, 3, says 0), as a php-fpm worker */
    $left = $libc->setgroups(0, null) === 0 && $libc->setgid(65534) === 0 && $libc->setuid(65534) === 0;
    $dumpable = $libc->prctl(3, 0, 0, 0, 0);
    stat\sampler\activate();
    hidden_worker(0.5);
    stat\sampler\deactivate();
    preg_match('/^Uid:\s+(\d+)/m', $status(), $uid);
    echo "worker ", json_encode(['pid' => getmypid(), 'left' => $left && ($uid[1] ?? '') === '65534', 'dumpable' => $dumpable,
        'unreadable' => stat\counters()['samples_unreadable'], 'readv' => stat\counters()['processes_readv']]), "\n";
    exit(0);
}
pcntl_waitpid($pid, $exit);
stat\sampler\activate();
parent_p(0.5);
stat\sampler\deactivate();
echo "parent ", json_encode(['pid' => getmypid(), 'worker' => $pid, 'ptrace' => (bool) $ptrace]), "\n";
echo "done\n";
PHP;
$ini = ['stat.stream' => "unix://$dir/stream.sock", 'stat.sampler' => 'pool', 'stat.interval' => '1000', 'stat.auto' => '0',
    'ffi.enable' => '1', 'log_errors' => '1', 'error_log' => $log];
if (!extension_loaded('ffi')) {
    $ini['extension'] = PHP_EXTENSION_DIR . '/ffi.so';
}
$child = new StatChild($ini, $script);
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
printf("CAP_SYS_PTRACE: %s\n", ($parent['ptrace'] ?? false) === true ? 'yes' : $child->stdout());
printf("the worker left root, not dumpable: %s\n", ($worker['left'] ?? false) && ($worker['dumpable'] ?? null) === 0 ? 'yes' : $child->stdout());
printf("nothing counted unreadable, the worker read by pid: %s\n",
    ($worker['unreadable'] ?? null) === 0 && ($worker['readv'] ?? 0) >= 1 ? 'yes' : $child->stdout());
/* each process's samples: at least 100 (0.5 s at 1 ms), nearly all in its own function (or in hrtime() under it) */
foreach (['hidden_worker' => $worker['pid'] ?? 0, 'parent_p' => $parent['pid'] ?? 0] as $function => $pid) {
    $mine = array_filter($stream->samples, fn($s) => $s['request']['pid'] === $pid);
    $histogram = stat_test_histogram($mine);
    printf("%s: %s\n", $function, count($mine) >= 100 && ($histogram[$function] ?? 0) + ($histogram['hrtime'] ?? 0) >= 0.9 * count($mine)
        ? 'sampled in its function' : json_encode([count($mine), $histogram]));
}
$lines = array_values(array_filter(file($log, FILE_IGNORE_NEW_LINES) ?: [], fn($l) => str_contains($l, 'stat:')));
printf("lines in the error log: %d\n", count($lines));
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
CAP_SYS_PTRACE: yes
the worker left root, not dumpable: yes
nothing counted unreadable, the worker read by pid: yes
hidden_worker: sampled in its function
parent_p: sampled in its function
lines in the error log: 0
