--TEST--
unit: the string arena: dedup, names cut at the maximum, bucket and table-entry collisions, a full arena refusing only what does not fit, threads interning the same names (strings.c included unchanged)
--SKIPIF--
<?php require __DIR__ . '/unit.inc'; if (!stat_unit_cc()) die('skip needs a C compiler (cc)'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/unit.inc';

stat_unit_run('test-strings.c', []);
?>
--EXPECT--
strings: a name interned twice is one reference and reads back its bytes: ok
strings: no string, full and out-of-arena references read as nothing: ok
strings: names longer than STAT_STRING_MAX are cut to it (and the same once cut): ok
strings: 40 names in one bucket and 20 in the buckets after it are all kept apart and found again: ok
strings: two names with the same table entry (hash bits and bucket) are two strings: ok
strings: a full arena refuses a name only when its bytes do not fit, and still finds the names it has: ok
strings: an arena filled with the shortest names takes them until its bytes run out (the table never fills first): ok
strings: 4 threads interning the same 3000 names at once get one reference per name: ok
8 passed, 0 failed
exit: 0
