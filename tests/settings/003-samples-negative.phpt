--TEST--
settings: a negative stat.samples gives one warning naming it and the value used (10000); the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$settings = stat_settings_invalid('stat.samples', '-5', '10000');
var_dump($settings['samples'] ?? 'missing');
?>
--EXPECT--
exit: 0
warnings: 1
names stat.samples: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
int(10000)
