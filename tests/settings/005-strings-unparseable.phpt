--TEST--
settings: an unparseable stat.strings gives one warning naming it and the value used (32M); the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$settings = stat_settings_invalid('stat.strings', 'lots', '32M');
var_dump($settings['strings'] ?? 'missing');
?>
--EXPECT--
exit: 0
warnings: 1
names stat.strings: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
int(33554432)
