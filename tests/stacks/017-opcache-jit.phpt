--TEST--
stacks: the basic stack test with opcache.jit=tracing: the right function names always; lines, where present, inside their function
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

stat_stacks_basic(stat_stacks_opcache_ini() + ['opcache.enable_cli' => '1', 'opcache.jit' => 'tracing', 'opcache.jit_buffer_size' => '64M'], true);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
child: {"opcache":true,"jit":true}
{closure}: enough samples
  names: as expected
  lines: as expected
md5: enough samples
  names: as expected
  lines: as expected
numbers: enough samples
  names: as expected
  lines: as expected
