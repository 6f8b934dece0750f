--TEST--
settings: a negative stat.samplers gives one warning naming it and the value used (0); the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$settings = stat_settings_invalid('stat.samplers', '-1', '0');
var_dump($settings['samplers'] ?? 'missing');
?>
--EXPECT--
exit: 0
warnings: 1
names stat.samplers: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
int(0)
