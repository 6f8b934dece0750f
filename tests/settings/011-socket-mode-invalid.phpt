--TEST--
settings: stat.socket_mode=999 (not octal) gives one warning and the socket is made with mode 0600
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$dir = stat_test_dir();
umask(0);
[$code, $stdout, $warnings, $rest] = stat_settings_child(['stat.socket_mode' => '999', 'stat.stream' => "unix://$dir/stream.sock"], <<<'PHP'
<?php
$path = substr(ini_get('stat.stream'), strlen('unix://'));
printf("ran, socket mode %o\n", fileperms($path) & 0777);
PHP);
var_dump($code);
printf("warnings: %d\n", count($warnings));
$warning = $warnings[0] ?? '';
printf("names stat.socket_mode: %s\n", str_contains($warning, 'stat.socket_mode') ? 'yes' : "no: $warning");
printf("names the value given: %s\n", str_contains($warning, '999') ? 'yes' : "no: $warning");
printf("says what it uses: %s\n", str_contains($warning, 'using 0600') ? 'yes' : "no: $warning");
var_dump($rest);
echo $stdout;

/* and a valid mode is applied */
[$code, $stdout, $warnings] = stat_settings_child(['stat.socket_mode' => '0660', 'stat.stream' => "unix://$dir/stream2.sock"], <<<'PHP'
<?php
$path = substr(ini_get('stat.stream'), strlen('unix://'));
printf("ran, socket mode %o\n", fileperms($path) & 0777);
PHP);
var_dump($code, $warnings);
echo $stdout;
?>
--EXPECT--
int(0)
warnings: 1
names stat.socket_mode: yes
names the value given: yes
says what it uses: yes
array(0) {
}
ran, socket mode 600
int(0)
array(0) {
}
ran, socket mode 660
