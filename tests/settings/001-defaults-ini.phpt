--TEST--
settings: with nothing configured, ini_get() shows each documented default
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

[$code, $stdout, $stderr] = stat_settings_defaults(<<<'PHP'
<?php
foreach (['auto', 'samplers', 'samples', 'interval', 'arginfo', 'strings', 'stack', 'stream', 'control', 'dump', 'socket_mode', 'control_mode', 'socket_group', 'clock'] as $name) {
    echo "stat.$name=", var_export(ini_get("stat.$name"), true), "\n";
}
PHP);
var_dump($code, $stderr);
echo $stdout;
?>
--EXPECT--
int(0)
string(0) ""
stat.auto='1'
stat.samplers='0'
stat.samples='10000'
stat.interval='100'
stat.arginfo='0'
stat.strings='32M'
stat.stack='64'
stat.stream=''
stat.control=''
stat.dump='0'
stat.socket_mode='0600'
stat.control_mode='0600'
stat.socket_group=''
stat.clock='wall'
