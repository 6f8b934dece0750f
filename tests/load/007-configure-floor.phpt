--TEST--
load: configure refuses a PHP older than 8.2, naming the version found and the minimum; a PHP newer than the tested 8.6 gets a warning, not a refusal
--SKIPIF--
<?php
if (!is_executable(__DIR__ . '/../../configure')) die('skip needs configure (run phpize first)');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/load.inc';

/* the php-config of the PHP under test (/usr/bin/php8.4 -> /usr/bin/php-config8.4) */
$php = realpath((string) getenv('TEST_PHP_EXECUTABLE')) ?: PHP_BINARY;
$suffix = preg_match('/^php(.*)$/', basename($php), $m) ? $m[1] : '';
$config = is_executable(dirname($php) . "/php-config$suffix") ? dirname($php) . "/php-config$suffix" : 'php-config';

/* a php-config that reports another version and answers everything else as the real one */
$dir = stat_test_dir();
foreach (['8.1.27' => 80127, '8.7.0' => 80700] as $version => $id) {
    $fake = "$dir/php-config-$version";
    file_put_contents($fake, "#!/bin/sh\ncase \"\$1\" in\n--version) echo $version ;;\n--vernum) echo $id ;;\n"
        . "*) exec " . escapeshellarg($config) . " \"\$@\" ;;\nesac\n");
    chmod($fake, 0700);
    @mkdir("$dir/build-$version");
    $process = proc_open([realpath(__DIR__ . '/../../configure'), "--with-php-config=$fake"],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/build-$version/out", 'w'], 2 => ['redirect', 1]],
        $pipes, "$dir/build-$version");
    $code = proc_close($process);
    $out = (string) file_get_contents("$dir/build-$version/out");
    preg_match('/^checking for a PHP version stat supports\.\.\. (.*)$/m', $out, $checked);
    preg_match('/configure: (error|WARNING): (.*)$/m', $out, $said);
    printf("PHP %s: configure %s\n  checked: %s\n  %s: %s\n", $version, $code === 0 ? 'succeeds' : 'fails',
        str_replace($fake, 'FAKE', $checked[1] ?? '(no check)'), $said[1] ?? '-', str_replace($fake, 'FAKE', $said[2] ?? '-'));
}
?>
--EXPECT--
PHP 8.1.27: configure fails
  checked: configure: error: stat needs PHP 8.2 or later; FAKE is PHP 8.1.27 (give another with --with-php-config=...)
  error: stat needs PHP 8.2 or later; FAKE is PHP 8.1.27 (give another with --with-php-config=...)
PHP 8.7.0: configure succeeds
  checked: 8.7.0, newer than the versions stat is tested on (8.2 to 8.6)
  WARNING: stat reads the engine's structures and is tested on PHP 8.2 to 8.6; PHP 8.7.0 may need changes
