--TEST--
pool: the PHP process that started stat exits while its pcntl_fork() child still runs: the stream keeps serving, carries the child's samples and ends only after the child exits
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip([])) die("skip $why"); if (!function_exists('pcntl_fork')) die('skip needs pcntl'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$dir = stat_pool_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '200'], <<<'PHP'
<?php
function orphan_work() { $t = microtime(true); $x = 0; while (microtime(true) - $t < 0.6) { $x++; } return $x; }
fgets(STDIN);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose(STDIN);
    fclose(STDOUT);
    fclose(STDERR);
    file_put_contents(__DIR__ . '/orphan.pid', getmypid());
    /* the test creates "go" once the parent has exited */
    $deadline = microtime(true) + 30;
    while (!file_exists(__DIR__ . '/go') && microtime(true) < $deadline) {
        usleep(2000);
    }
    stat\sampler\activate();
    orphan_work();
    exit(0);
}
echo "forked $pid\n";
PHP);

$stream = new StatPoolStream("$dir/stream.sock");
$child->send("go\n");
var_dump($child->wait());
$orphan = (int) stat_pool_until(fn() => (int) @file_get_contents("$dir/orphan.pid"), 10.0);
printf("parent exited, child alive: %s\n", $orphan > 0 && stat_pool_alive($orphan) ? 'yes' : 'no');
/* the listener must not end the stream now (it would within about a second) */
printf("stream still open 2 s after the parent exited: %s\n", $stream->readUntil(fn($s) => $s->eof, 2.0) ? 'no' : 'yes');
touch("$dir/go");
var_dump($stream->readAll(15.0));
printf("child gone: %s\n", stat_pool_until(fn() => !stat_pool_alive($orphan), 5.0) ? 'yes' : 'no');
$orphanSamples = array_filter($stream->samples, fn($s) => $s['request']['pid'] === $orphan && stat_test_symbol($s) === 'orphan_work');
printf("orphan_work sampled under the child's pid: %s\n", $orphanSamples ? 'yes' : 'no');
var_dump($stream->invalid);
?>
--EXPECT--
int(0)
parent exited, child alive: yes
stream still open 2 s after the parent exited: yes
bool(true)
child gone: yes
orphan_work sampled under the child's pid: yes
array(0) {
}
