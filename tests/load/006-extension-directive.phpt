--TEST--
load: extension= instead of zend_extension= gives one clear warning, stat stays off, PHP runs the script
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/load.inc';

$dir = stat_test_dir();
file_put_contents("$dir/script.php", <<<'PHP'
<?php
echo "ran\n";
echo json_encode([
    'loaded' => extension_loaded('stat'),
    'settings' => stat\settings(),
    'activate' => stat\sampler\activate(),
    'active' => stat\sampler\active(),
]), "\n";
PHP);
$command = stat_load_as_extension(stat_test_command(['stat.stream' => "unix://$dir/stream.sock"], ["$dir/script.php"]));
[$code, $stdout, $stderr] = stat_load_run($command);
var_dump($code);
$warnings = preg_grep('/Warning/', explode("\n", $stderr));
printf("warnings: %d\n", count($warnings));
$warning = (string) reset($warnings);
printf("says to use zend_extension: %s\n", str_contains($warning, 'zend_extension') ? 'yes' : "no: $warning");
printf("says stat is disabled: %s\n", str_contains($warning, 'disabled') ? 'yes' : "no: $warning");
echo $stdout;
printf("no stream socket: %s\n", file_exists("$dir/stream.sock") ? 'no' : 'yes');

[$code, $stdout, $stderr] = stat_load_run(stat_load_as_extension(stat_test_command([], ['-v'])));
printf("php -v: exit %d, stat line: %s\n", $code, str_contains($stdout, 'with Stat') ? 'yes' : 'no');
?>
--EXPECT--
int(0)
warnings: 1
says to use zend_extension: yes
says stat is disabled: yes
ran
{"loaded":true,"settings":[],"activate":false,"active":false}
no stream socket: yes
php -v: exit 0, stat line: no
