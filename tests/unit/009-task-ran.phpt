--TEST--
unit: whether a due CPU-clock tick may sample a thread (task.c linked unchanged, real threads): one blocked in read() never; one that slept since the last look and now computes on another CPU than the looker's, at every look while it computes, told by its CPU clock (the request sampler) and, without one, by its arrivals on a CPU against its departures (the pool sampler)
--SKIPIF--
<?php require __DIR__ . '/unit.inc'; if (!stat_unit_cc()) die('skip needs a C compiler (cc)');
if ((int) trim((string) shell_exec('nproc 2>/dev/null')) < 2) die('skip needs two CPUs'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/unit.inc';

stat_unit_run('test-task.c', ['common/task.c']);
?>
--EXPECT--
a thread blocked in read() is not judged running: ok
a thread that slept since the last look and computes on another CPU: judged running (its arrivals on a CPU): ok
a thread that slept since the last look and computes on another CPU: judged running (its clock): ok
3 passed, 0 failed
exit: 0
