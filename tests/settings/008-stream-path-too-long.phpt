--TEST--
settings: a unix socket path longer than sun_path gives one warning naming stat.stream and the value used (0); the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$path = stat_test_dir() . '/' . str_repeat('s', 120) . '.sock';
$settings = stat_settings_invalid('stat.stream', "unix://$path", '0');
var_dump($settings['stream'] ?? 'missing');
printf("no socket file: %s\n", file_exists($path) ? 'no' : 'yes');
?>
--EXPECT--
exit: 0
warnings: 1
names stat.stream: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
string(0) ""
no socket file: yes
