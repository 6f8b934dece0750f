--TEST--
unit: statq's table of 128-bit digests alone (ship's tails, frames, pieces and head shapes): what is put is found with its value through growth and clears, what was not put is not, and random lookups and insertions answer as statq_table does (profile/digests.c and profile/table.c linked unchanged)
--SKIPIF--
<?php require __DIR__ . '/unit.inc'; if (!stat_unit_cc()) die('skip needs a C compiler (cc)'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/unit.inc';

stat_unit_run('test-statq-digests.c', ['../tools/statq/profile/digests.c', '../tools/statq/profile/table.c']);
?>
--EXPECT--
200,000 digests put (growing from empty), each found with its value; put again, not added: ok
100,000 digests never put: none found: ok
a digest that differs only in its second word's lowest bit is the same one (digests.h): ok
a digest whose second word is 0 is kept and found: ok
cleared: nothing found, used 0, and it takes digests again: ok
300,000 random lookups and insertions: the same answers and values as statq_table's: ok
6 passed, 0 failed
exit: 0
