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

[$parent, $worker, $stream, $child, $log] = stat_poolsampler_nobody_run([]);
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
