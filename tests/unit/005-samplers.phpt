--TEST--
unit: the table of sampler places: a limit refuses past it and never lets threads hold more, 0 is unlimited, a release by another pid frees nothing, places of dead processes are taken back (samplers.c linked unchanged)
--SKIPIF--
<?php require __DIR__ . '/unit.inc'; if (!stat_unit_cc()) die('skip needs a C compiler (cc)'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/unit.inc';

stat_unit_run('test-samplers.c', ['shared/samplers.c']);
?>
--EXPECT--
samplers: with a limit of 2 a third claim is refused; a place given back is claimed again: ok
samplers: limit 0 is unlimited; a release naming another pid gives nothing back: ok
samplers: the place of a process that died holding it is not counted, and does not refuse a claim under a limit of 1: ok
samplers: a table full of dead processes' places still gives a place (limit 0): ok
samplers: 6 threads claiming and giving back under a limit of 2 never hold more than 2 places: ok
5 passed, 0 failed
exit: 0
