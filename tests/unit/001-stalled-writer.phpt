--TEST--
unit: a ring or request-table writer paused inside its copy and overtaken a lap later never makes a reader accept a mix of two writers (ring.c and requests.c unchanged, their memcpy routed to a pausing copy)
--SKIPIF--
<?php require __DIR__ . '/unit.inc'; if (!stat_unit_cc()) die('skip needs a C compiler (cc)'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/unit.inc';

stat_unit_run('stalled-writer.c', ['shared/ring.c', 'shared/requests.c'], ['-Dmemcpy=stat_unit_memcpy']);
?>
--EXPECT--
ring: writer stalled halfway through its copy: ok - B written yes, read while A stalled B, after A went on skipped (A's write refused)
ring: writer stalled after its copy, before its checksum: ok - B written yes, read while A stalled B, after A went on skipped (A's write refused)
requests: writer stalled halfway through its record: ok - read while A stalled B, after A went on refused
requests: writer stalled after its record, before its checksum: ok - read while A stalled B, after A went on refused
4 passed, 0 failed
exit: 0
