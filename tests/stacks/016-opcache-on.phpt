--TEST--
stacks: the basic stack test with opcache on (opcache.enable_cli=1): exact names and lines
--SKIPIF--
<?php
require __DIR__ . '/stacks.inc';
if (stat_stacks_opcache_ini() === null) die('skip opcache cannot be loaded in a child (Debian: php' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION . '-opcache, built in from 8.5)');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

stat_stacks_basic(stat_stacks_opcache_ini() + ['opcache.enable_cli' => '1', 'opcache.jit' => 'disable', 'opcache.jit_buffer_size' => '0']);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
child: {"opcache":true,"jit":false}
{closure}: enough samples
  names: as expected
  lines: as expected
md5: enough samples
  names: as expected
  lines: as expected
numbers: enough samples
  names: as expected
  lines: as expected
