--TEST--
poolsampler: a worker the pool sampler may not read (root without CAP_SYS_PTRACE, a container's default, and a worker that left root and is not dumpable, as php-fpm's are) is counted in samples_unreadable and never sampled, and PHP's error log says so once for the pool, naming the process, the reason and the three ways out (CAP_SYS_PTRACE, process.dumpable, stat.sampler=request); the parent, the pool sampler's own user, is sampled
--SKIPIF--
<?php
require __DIR__ . '/poolsampler.inc';
if ($why = stat_poolsampler_skip()) die("skip $why");
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

[$parent, $worker, $stream, $child, $log] = stat_poolsampler_nobody_run(stat_poolsampler_no_ptrace());
printf("no CAP_SYS_PTRACE: %s\n", ($parent['ptrace'] ?? true) === false ? 'yes' : $child->stdout());
printf("the worker left root, not dumpable: %s\n", ($worker['left'] ?? false) && ($worker['dumpable'] ?? null) === 0 ? 'yes' : $child->stdout());
/* 0.5 s at 1 ms: hundreds of ticks found it active and could not read it */
printf("the worker's ticks counted unreadable: %s\n", ($worker['unreadable'] ?? 0) >= 100 ? 'yes' : $child->stdout());
$of = fn(int $pid) => array_filter($stream->samples, fn($s) => $s['request']['pid'] === $pid);
printf("samples of the worker: %d\n", count($of($worker['pid'] ?? 0)));
$mine = $of($parent['pid'] ?? 0);
$histogram = stat_test_histogram($mine);
printf("parent_p: %s\n", count($mine) >= 100 && ($histogram['parent_p'] ?? 0) + ($histogram['hrtime'] ?? 0) >= 0.9 * count($mine)
    ? 'sampled in its function' : json_encode([count($mine), $histogram]));

/* one line for the pool (the worker's request and the parent's both ended after the refusal), naming the way out */
$lines = array_values(array_filter(file($log, FILE_IGNORE_NEW_LINES) ?: [], fn($l) => str_contains($l, 'stat:')));
printf("lines in the error log: %d\n", count($lines));
$line = $lines[0] ?? '';
printf("names the process and why: %s\n",
    str_contains($line, 'may not read the memory of PHP process ' . ($worker['pid'] ?? '?') . ' (Permission denied)') ? 'yes' : $line);
foreach (['samples_unreadable', 'CAP_SYS_PTRACE', 'process.dumpable = yes', 'stat.sampler=request'] as $hint) {
    printf("says %s: %s\n", $hint, str_contains($line, $hint) ? 'yes' : $line);
}
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
no CAP_SYS_PTRACE: yes
the worker left root, not dumpable: yes
the worker's ticks counted unreadable: yes
samples of the worker: 0
parent_p: sampled in its function
lines in the error log: 1
names the process and why: yes
says samples_unreadable: yes
says CAP_SYS_PTRACE: yes
says process.dumpable = yes: yes
says stat.sampler=request: yes
