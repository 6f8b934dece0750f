--TEST--
settings: stat.auto=maybe gives one warning naming it and the value used (On); the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$settings = stat_settings_invalid('stat.auto', 'maybe', 'On');
var_dump($settings['auto'] ?? 'missing');
?>
--EXPECT--
exit: 0
warnings: 1
names stat.auto: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
bool(true)
