--TEST--
unit: the ring alone and under concurrent writers and readers, in threads and in forked processes: samples whole and in order, wrap-around, a lapped reader's lost count exact; the bell rung once when armed, and never a wake-up lost between processes (ring.c linked unchanged)
--SKIPIF--
<?php require __DIR__ . '/unit.inc'; if (!stat_unit_cc()) die('skip needs a C compiler (cc)'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/unit.inc';

stat_unit_run('test-ring.c', ['shared/ring.c']);
?>
--EXPECT--
ring: a sample written is read back whole, once: ok
ring: a short sample in a slot a longer one used reads with zeros after its length: ok
ring: a sample longer than a slot is cut to the slot's size: ok
ring: 1000 samples through 8 slots: the last 8 are kept, whole and in order: ok
ring: a reader lapped by the writers counts exactly the samples it missed: ok
ring: 4 writer and 2 reader threads on 16 slots: every sample read is whole and in its writer's order, read + lost = written: ok
ring: 4 writer processes and 2 reader processes on 16 shared slots: every sample read is whole and in its writer's order, read + lost = written: ok
ring: the bell rings only armed, once for any number of writes, and not once quieted: ok
ring: 2 writer processes and a listener asleep on the bell whenever it has read all: every sample wakes it, no wake-up lost: ok
9 passed, 0 failed
exit: 0
