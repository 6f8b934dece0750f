--TEST--
settings: with nothing configured, stat\settings() shows the defaults in effect and both default sockets listen
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$dir = stat_test_dir();
[$code, $stdout, $stderr] = stat_settings_defaults(<<<'PHP'
<?php
$settings = stat\settings();
$listener = $settings['listener'];
$settings['listener']['pid'] = $listener['pid'] > 0 && $listener['pid'] !== getmypid() ? 'a pid, not PHP\'s' : $listener['pid'];
var_dump($settings);
printf("stream socket in cwd: %s\n", filetype(getcwd() . '/zend.stat.stream'));
printf("control socket in cwd: %s\n", filetype(getcwd() . '/zend.stat.control'));
printf("stream socket mode: %o\n", fileperms(getcwd() . '/zend.stat.stream') & 0777);
PHP);
var_dump($code, $stderr);
echo $stdout;
printf("sockets removed at exit: %s\n", stat_test_wait_gone("$dir/zend.stat.stream") && stat_test_wait_gone("$dir/zend.stat.control") ? 'yes' : 'no');
?>
--EXPECT--
int(0)
string(0) ""
array(12) {
  ["auto"]=>
  bool(true)
  ["samplers"]=>
  int(0)
  ["interval"]=>
  int(100)
  ["arginfo"]=>
  bool(false)
  ["stack"]=>
  int(0)
  ["samples"]=>
  int(10000)
  ["strings"]=>
  int(33554432)
  ["stream"]=>
  string(23) "unix://zend.stat.stream"
  ["control"]=>
  string(24) "unix://zend.stat.control"
  ["dump"]=>
  int(0)
  ["sampling"]=>
  bool(true)
  ["listener"]=>
  array(2) {
    ["pid"]=>
    string(16) "a pid, not PHP's"
    ["state"]=>
    string(7) "serving"
  }
}
stream socket in cwd: socket
control socket in cwd: socket
stream socket mode: 600
sockets removed at exit: yes
