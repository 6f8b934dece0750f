--TEST--
settings: with nothing configured, stat\settings() shows the defaults in effect: stacks of up to 64 frames, no socket (none is made in the working directory), so no listener
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$dir = stat_test_dir();
[$code, $stdout, $stderr] = stat_settings_defaults(<<<'PHP'
<?php
var_dump(stat\settings());
printf("files in cwd: [%s]\n", implode(',', array_filter(scandir(getcwd()), fn($f) => str_starts_with($f, 'zend.') || str_contains($f, 'stat.'))));
PHP);
var_dump($code, $stderr);
echo $stdout;
?>
--EXPECT--
int(0)
string(0) ""
array(16) {
  ["auto"]=>
  bool(true)
  ["samplers"]=>
  int(0)
  ["interval"]=>
  int(100)
  ["arginfo"]=>
  bool(false)
  ["stack"]=>
  int(64)
  ["clock"]=>
  string(4) "wall"
  ["sampler"]=>
  string(7) "request"
  ["pool_rate"]=>
  int(0)
  ["query"]=>
  string(4) "none"
  ["samples"]=>
  int(10000)
  ["strings"]=>
  int(33554432)
  ["stream"]=>
  string(0) ""
  ["control"]=>
  string(0) ""
  ["dump"]=>
  int(0)
  ["sampling"]=>
  bool(true)
  ["listener"]=>
  array(2) {
    ["pid"]=>
    int(0)
    ["state"]=>
    string(3) "off"
  }
}
files in cwd: []
