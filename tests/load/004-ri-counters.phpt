--TEST--
load: php --ri stat shows the counters: samples written, dropped, failed, strings used/free, clients connected
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/load.inc';

[$code, $stdout, $stderr] = stat_load_run(stat_test_command(['stat.strings' => '64K'], ['--ri', 'stat']));
var_dump($code, $stderr);
$rows = stat_load_info_rows($stdout);
foreach (['samples written', 'samples dropped', 'samples failed', 'strings used', 'strings free',
          'stream clients connected'] as $prefix) {
    printf("%s: %s\n", $prefix, stat_load_info_number($rows, $prefix) === null ? 'MISSING' : 'a number');
}
$used = stat_load_info_number($rows, 'strings used');
$free = stat_load_info_number($rows, 'strings free');
printf("used + free = 64K: %s\n", $used !== null && $free !== null && $used + $free === 65536 ? 'yes' : "no ($used + $free)");
printf("clients connected: %s\n", var_export(stat_load_info_number($rows, 'stream clients connected'), true));
?>
--EXPECT--
int(0)
string(0) ""
samples written: a number
samples dropped: a number
samples failed: a number
strings used: a number
strings free: a number
stream clients connected: a number
used + free = 64K: yes
clients connected: 0
