--TEST--
settings: stat.arginfo=sometimes gives one warning naming it and the value used (Off); the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$settings = stat_settings_invalid('stat.arginfo', 'sometimes', 'Off');
var_dump($settings['arginfo'] ?? 'missing');
?>
--EXPECT--
exit: 0
warnings: 1
names stat.arginfo: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
bool(false)
