--TEST--
settings: stat.clock=sometimes gives one warning naming it and the value used (wall); stat.clock=CPU is the CPU clock; the script runs
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$settings = stat_settings_invalid('stat.clock', 'sometimes', 'wall');
var_dump($settings['clock'] ?? 'missing');
[$code, $stdout, $warnings] = stat_settings_child(['stat.clock' => 'CPU']);
printf("CPU: exit %d, warnings %d, clock %s\n", $code, count($warnings), json_decode(explode("\n", $stdout)[1], true)['clock']);
?>
--EXPECT--
exit: 0
warnings: 1
names stat.clock: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
string(4) "wall"
CPU: exit 0, warnings 0, clock cpu
