--TEST--
settings: stat.strings=1T cannot be mapped: one warning ending "stat is disabled", PHP runs on, stat\settings() is []
--SKIPIF--
<?php if (trim((string) @file_get_contents('/proc/sys/vm/overcommit_memory')) === '1') die('skip vm.overcommit_memory=1 lets a 1T mapping succeed'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$dir = stat_test_dir();
[$code, $stdout, $warnings, $rest] = stat_settings_child(['stat.strings' => '1T', 'stat.stream' => "unix://$dir/stream.sock"], <<<'PHP'
<?php
echo "ran\n";
var_dump(stat\settings(), stat\counters(), stat\sampler\activate(), stat\sampler\active());
printf("socket: %s\n", file_exists(substr(ini_get('stat.stream'), 7)) ? 'yes' : 'no');
PHP);
var_dump($code);
printf("warnings: %d\n", count($warnings));
$warning = $warnings[0] ?? '';
printf("says stat is disabled: %s\n", preg_match('/stat is disabled/', $warning) ? 'yes' : "no: $warning");
printf("names stat.strings: %s\n", str_contains($warning, 'stat.strings') ? 'yes' : "no: $warning");
var_dump($rest);
echo $stdout;
?>
--EXPECT--
int(0)
warnings: 1
says stat is disabled: yes
names stat.strings: yes
array(0) {
}
ran
array(0) {
}
array(0) {
}
bool(false)
bool(false)
socket: no
