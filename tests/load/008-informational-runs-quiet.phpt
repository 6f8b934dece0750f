--TEST--
load: php -v, -i, -m, --ri stat, -l and php-fpm -t, -v with the pool's socket settings while the pool runs: no socket taken, no warning, the pool's listener untouched; a CLI php with no socket settings leaves nothing in its working directory
--SKIPIF--
<?php require __DIR__ . '/load.inc'; if (!stat_test_sapi_binary('fpm')) die('skip no php-fpm for this PHP (Debian: php' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION . '-fpm)'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/load.inc';

$dir = stat_test_dir();
$ini = ['stat.stream' => "$dir/stream.sock", 'stat.control' => "$dir/control.sock"];
$pool = new StatChild($ini, "<?php echo \"ready\\n\"; fgets(STDIN);");
var_dump($pool->waitFor("ready\n"));
$first = new StatStream("$dir/stream.sock");
$first->readUntil(fn($s) => $s->status !== null, 10.0);
$listener = $first->status['listener']['pid'];
$first->close();

file_put_contents("$dir/lint.php", "<?php echo 1;\n");
foreach ([['-v'], ['-i'], ['-m'], ['--ri', 'stat'], ['-l', "$dir/lint.php"], ['-d', 'display_errors=1', '-v']] as $args) {
    [$code, $stdout, $stderr] = stat_load_run(stat_test_command($ini, $args));
    $noise = preg_grep('/stat|[Ww]arning/', explode("\n", $stderr));
    printf("php %s: exit %s, warnings [%s], output %s\n", str_replace($dir, 'DIR', implode(' ', $args)), var_export($code, true), implode('|', $noise),
        $stdout !== '' ? 'yes' : 'no');
}
[, $stdout] = stat_load_run(stat_test_command($ini, ['--ri', 'stat']));
printf("--ri names the stream it did not open: %s\n", str_contains($stdout, "Stream => unix://$dir/stream.sock (not opened: this run only prints information)") ? 'yes' : $stdout);

$fpm = stat_test_sapi_binary('fpm');
file_put_contents("$dir/fpm.conf", "[global]\nerror_log = $dir/fpm.log\n[www]\nlisten = $dir/fpm.sock\npm = static\npm.max_children = 1\n");
$iniFile = "$dir/fpm.ini";
preg_match('/zend_extension=("[^"]*"|\'[^\']*\'|\S+)/', (string) getenv('TEST_PHP_EXTRA_ARGS'), $m);
file_put_contents($iniFile, "zend_extension=" . trim($m[1], '"\'') . "\nstat.stream=$dir/stream.sock\nstat.control=$dir/control.sock\ndisplay_startup_errors=1\n");
foreach ([['-t'], ['-v'], ['-m']] as $args) {
    $root = trim((string) shell_exec('id -u')) === '0' ? ['-R'] : [];
    [$code, $stdout, $stderr] = stat_load_run(array_merge([$fpm, '-n', '-c', $iniFile, '-y', "$dir/fpm.conf"], $root, $args));
    $noise = preg_grep('/stat\.|in use|Warning/', explode("\n", $stdout . "\n" . $stderr));
    printf("php-fpm %s: exit %s, warnings [%s]\n", implode(' ', $args), var_export($code, true), implode('|', $noise));
}

/* the pool's listener still serves, the same one */
$after = new StatStream("$dir/stream.sock");
$after->readUntil(fn($s) => $s->status !== null, 10.0);
printf("same listener serving: %s\n", ($after->status['listener']['pid'] ?? 0) === $listener ? 'yes' : 'no');
$after->close();
$pool->send("end\n");
var_dump($pool->wait());

/* a CLI php with stat and no socket setting: no files where it runs, no warning */
$cwd = "$dir/cwd";
mkdir($cwd);
$command = stat_test_command([], ['-r', 'echo stat\settings()["stream"] === "" ? "no stream\n" : "stream\n";']);
$command = array_values(array_filter($command, fn($w, $i) => !in_array($w, ['stat.stream=0', 'stat.control=0'], true) &&
    !($w === '-d' && in_array($command[$i + 1] ?? '', ['stat.stream=0', 'stat.control=0'], true)), ARRAY_FILTER_USE_BOTH));
$process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, $cwd);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
printf("default CLI: %s, exit %d, stderr [%s], files left: [%s]\n", trim($out), proc_close($process), trim($err),
    implode(',', array_diff(scandir($cwd), ['.', '..'])));
?>
--EXPECT--
bool(true)
php -v: exit 0, warnings [], output yes
php -i: exit 0, warnings [], output yes
php -m: exit 0, warnings [], output yes
php --ri stat: exit 0, warnings [], output yes
php -l DIR/lint.php: exit 0, warnings [], output yes
php -d display_errors=1 -v: exit 0, warnings [], output yes
--ri names the stream it did not open: yes
php-fpm -t: exit 0, warnings []
php-fpm -v: exit 0, warnings []
php-fpm -m: exit 0, warnings []
same listener serving: yes
int(0)
default CLI: no stream, exit 0, stderr [], files left: []
