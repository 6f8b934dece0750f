--TEST--
unit: the request table: lookup by id, round-robin reuse, and concurrent writers and readers never yielding another id's record or a mix (requests.c linked unchanged)
--SKIPIF--
<?php require __DIR__ . '/unit.inc'; if (!stat_unit_cc()) die('skip needs a C compiler (cc)'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/unit.inc';

stat_unit_run('test-requests.c', ['shared/requests.c']);
?>
--EXPECT--
requests: ids count from 1; a record reads back exactly; id 0 and an id not yet written read as nothing: ok
requests: records are reused round-robin: a reused id reads as nothing, the newer ids as themselves: ok
requests: 2 threads publishing records into 8 while 2 look up the newest ids: a record read is always its own id's, whole: ok
3 passed, 0 failed
exit: 0
