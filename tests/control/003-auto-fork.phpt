--TEST--
control: auto=0 reaches a pcntl_fork()ed child already running; the running sampler goes on; activate() still works
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl is not available'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
/* The parent owns the sockets and forks before the change. In the CLI there is one
 * request per process, so "samplers created from now on" are the ones activate()
 * makes; what auto=0 must change is the shared setting, in both processes. */
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => $control,
    'stat.auto' => '1', 'stat.interval' => '500'], <<<'PHP'
<?php
function busy(float $seconds): void {
    $end = microtime(true) + $seconds;
    while (microtime(true) < $end) {
        for ($i = 0; $i < 1000; $i++) {
        }
    }
}
function await_auto(bool $want): bool {
    $deadline = microtime(true) + 10;
    while (stat\settings()['auto'] !== $want) {
        if (microtime(true) > $deadline) {
            return false;
        }
        busy(0.001);
    }
    return true;
}
$pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
printf("parent active: %s\n", json_encode(stat\sampler\active()));
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($pair[0]);
    $out = ['active after fork' => stat\sampler\active(), 'auto before' => stat\settings()['auto']];
    fwrite($pair[1], "forked\n");
    $out['saw auto off'] = await_auto(false);
    $out['auto after'] = stat\settings()['auto'];
    $out['activate'] = stat\sampler\activate();
    busy(0.3);
    $out['deactivate'] = stat\sampler\deactivate();
    fwrite($pair[1], json_encode($out) . "\n");
    exit(0);
}
fclose($pair[1]);
echo trim(fgets($pair[0])), ' ', $pid, "\n";
printf("parent saw auto off: %s\n", json_encode(await_auto(false)));
$off = stat\elapsed();
echo "child: ", trim(fgets($pair[0])), "\n";
pcntl_waitpid($pid, $status);
printf("child exit: %s\n", pcntl_wifexited($status) ? pcntl_wexitstatus($status) : 'signal ' . pcntl_wtermsig($status));
busy(0.3);
printf("parent still active: %s\n", json_encode(stat\sampler\active()));
printf("parent off at %d\n", (int) ($off * 1e6)); /* microseconds: see control.inc on floats */
PHP);

var_dump($child->waitFor("forked "));
$stream = new StatStream("$dir/stream.sock");
ctl_send($control, ctl_message(CTL_AUTO, 0));
/* to EOF while the child exits (it gives stream clients about a second to take the rest) */
var_dump($stream->readAll());
var_dump($child->wait());
preg_match('/^forked (\d+)$/m', $child->stdout(), $forked);
preg_match('/^parent off at (\d+)$/m', $child->stdout(), $off);
echo preg_replace('/^(forked \d+|parent off at .*)\n/m', '', $child->stdout());

$parentAfter = $childSamples = 0;
foreach ($stream->samples as $sample) {
    if ($sample['request']['pid'] === $child->pid() && $sample['elapsed'] > $off[1] / 1e6) {
        $parentAfter++;
    }
    if ($sample['request']['pid'] === (int) $forked[1]) {
        $childSamples++;
    }
}
printf("parent sampled after auto=0: %s\n", $parentAfter > 0 ? 'yes' : 'no');
printf("forked child sampled (activate): %s\n", $childSamples > 0 ? 'yes' : 'no');
var_dump($stream->invalid, $child->stderr());
?>
--EXPECT--
bool(true)
bool(true)
int(0)
parent active: true
parent saw auto off: true
child: {"active after fork":false,"auto before":true,"saw auto off":true,"auto after":false,"activate":true,"deactivate":true}
child exit: 0
parent still active: true
parent sampled after auto=0: yes
forked child sampled (activate): yes
array(0) {
}
string(0) ""
