--TEST--
load: php --ri stat shows that stat is enabled, its version and every setting as configured
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/load.inc';

$ini = ['stat.interval' => '250', 'stat.samples' => '512', 'stat.samplers' => '3', 'stat.strings' => '1M',
        'stat.arginfo' => '1', 'stat.auto' => '0', 'stat.stack' => '4', 'stat.socket_mode' => '0660'];
[$code, $stdout, $stderr] = stat_load_run(stat_test_command($ini, ['--ri', 'stat']));
var_dump($code, $stderr);
$rows = stat_load_info_rows($stdout);
var_dump($rows['stat'] ?? null, $rows['Version'] ?? null);
foreach (['stat.auto', 'stat.samplers', 'stat.samples', 'stat.interval', 'stat.arginfo', 'stat.strings',
          'stat.stack', 'stat.stream', 'stat.control', 'stat.dump', 'stat.socket_mode'] as $name) {
    printf("%s => %s\n", $name, $rows[$name] ?? 'MISSING');
}
printf("live interval: %s\n", var_export(stat_load_info_number($rows, 'interval'), true));
printf("live samplers: %s\n", var_export(stat_load_info_number($rows, 'samplers (live)'), true));
?>
--EXPECT--
int(0)
string(0) ""
string(7) "enabled"
string(5) "1.0.0"
stat.auto => 0 => 0
stat.samplers => 3 => 3
stat.samples => 512 => 512
stat.interval => 250 => 250
stat.arginfo => 1 => 1
stat.strings => 1M => 1M
stat.stack => 4 => 4
stat.stream => 0 => 0
stat.control => 0 => 0
stat.dump => 0 => 0
stat.socket_mode => 0660 => 0660
live interval: 250
live samplers: 3
