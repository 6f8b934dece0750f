--TEST--
settings: stat.interval below 10 gives one warning naming it and the value used (10); the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$settings = stat_settings_invalid('stat.interval', '5', '10');
var_dump($settings['interval'] ?? 'missing');
?>
--EXPECT--
exit: 0
warnings: 1
names stat.interval: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
int(10)
