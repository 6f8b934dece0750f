--TEST--
load: php -v shows "with Stat v<version>, Copyright (c) ..."
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/load.inc';

[$code, $stdout, $stderr] = stat_load_run(stat_test_command([], ['-v']));
var_dump($code, $stderr);
$lines = preg_grep('/Stat/', explode("\n", $stdout));
var_dump(count($lines));
$line = (string) reset($lines);
printf("line: %s\n", preg_match('/^    with Stat v(\d+\.\d+\.\d+), Copyright \(c\) \S.*$/', $line, $m) ? 'ok' : "wrong: '$line'");
printf("version is phpversion('stat'): %s\n", ($m[1] ?? null) === phpversion('stat') ? 'yes' : 'no');
printf("after the Zend Engine line: %s\n", strpos($stdout, 'Zend Engine') < strpos($stdout, 'with Stat') ? 'yes' : 'no');
?>
--EXPECT--
int(0)
string(0) ""
int(1)
line: ok
version is phpversion('stat'): yes
after the Zend Engine line: yes
