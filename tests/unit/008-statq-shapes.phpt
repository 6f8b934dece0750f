--TEST--
unit: ship's heads parsed once per shape (input/shape.c) against statq_strict_parse itself: 200,000 heads of 4 shapes (stat's, one with a weight, one with arrays, one with a key twice), their numbers integers, fractions, exponents, numbers JSON refuses, too long and too great: both refuse, or give equal values (every member, every number's kind and value; shape.c, strict.c, digests.c and table.c linked unchanged; real json-c)
--SKIPIF--
<?php require __DIR__ . '/unit.inc'; if (!stat_unit_cc()) die('skip needs a C compiler (cc)'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/unit.inc';

stat_unit_run('test-statq-shapes.c', ['../tools/statq/input/shape.c', '../tools/statq/input/strict.c', '../tools/statq/profile/digests.c',
    '../tools/statq/profile/table.c'], [], ['-ljson-c']);
?>
--EXPECT--
200,000 heads of 4 shapes, numbers of every kind: the memo's value is statq_strict_parse's, or both refuse: ok
both kinds of answer were given (heads taken and heads refused): ok
1,000,000 texts: each decimal statq_strict_decimal takes is strtod's double, to the bit: ok
a kept value keeps its members where they were, head after head: ok
4 passed, 0 failed
exit: 0
