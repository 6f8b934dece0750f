--TEST--
load: extension_loaded('stat'), its functions and INI entries exist, and stat is enabled
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
var_dump(extension_loaded('stat'));
foreach (['stat\pid', 'stat\elapsed', 'stat\settings', 'stat\counters',
          'stat\sampler\activate', 'stat\sampler\active', 'stat\sampler\deactivate'] as $function) {
    printf("%s: %s\n", $function, function_exists($function) ? 'yes' : 'no');
}
$names = array_keys(ini_get_all('stat'));
sort($names);
echo implode(' ', $names), "\n";
printf("enabled (settings not empty): %s\n", stat\settings() !== [] ? 'yes' : 'no');
printf("functions listed by get_extension_funcs: %d\n", count(get_extension_funcs('stat') ?: []));
?>
--EXPECT--
bool(true)
stat\pid: yes
stat\elapsed: yes
stat\settings: yes
stat\counters: yes
stat\sampler\activate: yes
stat\sampler\active: yes
stat\sampler\deactivate: yes
stat.arginfo stat.auto stat.clock stat.control stat.control_mode stat.dump stat.interval stat.pool_rate stat.query stat.remote stat.sampler stat.samplers stat.samples stat.secret stat.socket_group stat.socket_mode stat.stack stat.stream stat.strings
enabled (settings not empty): yes
functions listed by get_extension_funcs: 7
