--TEST--
stream: the listener process is not a child of PHP: a script that forks two children and reaps until pcntl_wait() returns -1 ends, having reaped exactly its two; the listener still serves and ends after PHP
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl is not available'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => "unix://$dir/control.sock"], <<<'PHP'
<?php
$mine = [];
for ($i = 0; $i < 2; $i++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        usleep(100000); /* a child that does a little work */
        exit(7);
    }
    $mine[] = $pid;
}
echo "forked\n";
$reaped = [];
$deadline = microtime(true) + 10;
while (($pid = pcntl_wait($status, WNOHANG)) !== -1 && microtime(true) < $deadline) {
    if ($pid > 0) {
        $reaped[] = $pid;
    } else {
        usleep(1000); /* WNOHANG: polling, so that a hang shows as a result, not a timeout */
    }
}
sort($mine);
sort($reaped);
echo json_encode(['reaped only its children' => $reaped === $mine, 'wait ended with -1' => $pid === -1]), "\n";
PHP);
var_dump($child->waitFor("forked\n"));
$listeners = stat_test_listeners_started($child->pid());
printf("one listener, not a child of PHP: %s\n", count($listeners) === 1
    && !preg_match('/^\d+ \(.*\) \S (' . $child->pid() . ') /', (string) @file_get_contents("/proc/$listeners[0]/stat")) ? 'yes' : 'no');
printf("exit: %s\n", var_export($child->wait(), true));
echo $child->stdout(), $child->stderr();
printf("the listener ended after PHP (its socket removed): %s\n", stat_test_wait_gone("$dir/stream.sock") ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
one listener, not a child of PHP: yes
exit: 0
forked
{"reaped only its children":true,"wait ended with -1":true}
the listener ended after PHP (its socket removed): yes
