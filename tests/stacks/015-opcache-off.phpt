--TEST--
stacks: the basic stack test with opcache off: exact names and lines
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

stat_stacks_basic(['opcache.enable_cli' => '0']);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
child: {"opcache":false,"jit":false}
{closure}: enough samples
  names: as expected
  lines: as expected
md5: enough samples
  names: as expected
  lines: as expected
numbers: enough samples
  names: as expected
  lines: as expected
