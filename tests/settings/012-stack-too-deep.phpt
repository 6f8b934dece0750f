--TEST--
settings: stat.stack=1000 gives one warning naming it and the value used (256); the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$settings = stat_settings_invalid('stat.stack', '1000', '256');
var_dump($settings['stack'] ?? 'missing');
?>
--EXPECT--
exit: 0
warnings: 1
names stat.stack: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
int(256)
