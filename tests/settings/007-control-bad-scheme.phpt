--TEST--
settings: a stat.control URL with an unknown scheme gives one warning naming it and the value used (0); the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$settings = stat_settings_invalid('stat.control', 'udp://127.0.0.1:8011', '0');
var_dump($settings['control'] ?? 'missing');
?>
--EXPECT--
exit: 0
warnings: 1
names stat.control: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
string(0) ""
