--TEST--
control: samplers=1 sent live caps samplers created afterwards across forked processes; samplers=0 lifts the cap
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
$child = new StatChild(['stat.control' => $control, 'stat.samplers' => '0', 'stat.auto' => '0', 'stat.interval' => '500'],
    "<?php\n" . CTL_FORK_PRELUDE . <<<'PHP'

function await_samplers(int $want): bool {
    $deadline = microtime(true) + 10;
    while (stat\settings()['samplers'] !== $want) {
        if (microtime(true) > $deadline) {
            return false;
        }
        busy(0.001);
    }
    return true;
}
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$parent = stat\sampler\activate();
$pid = pcntl_fork();
if ($pid === 0) {
    $socket = $theirs;
    $r = ['child activate' => stat\sampler\activate()];
    tell($socket, 'active');
    expect($socket, 'limited');
    $r += ['child saw samplers=1' => await_samplers(1), 'child still active' => stat\sampler\active(),
           'child deactivate' => stat\sampler\deactivate(), 'child activate again' => stat\sampler\activate()];
    echo 'child under samplers=1: ', json_encode($r), "\n";
    tell($socket, 'refused');
    expect($socket, 'unlimited');
    $r = ['child saw samplers=0' => await_samplers(0), 'child activate' => stat\sampler\activate(), 'places' => places()];
    echo 'child under samplers=0: ', json_encode($r), "\n";
    stat\sampler\deactivate();
    tell($socket, 'done');
    exit(0);
}
$socket = $mine;
expect($socket, 'active');
echo 'both active: ' . json_encode(['parent activate' => $parent, 'places' => places(), 'samplers' => stat\settings()['samplers']]) . "\n";
printf("parent saw samplers=1: %s\n", json_encode(await_samplers(1)));
echo 'running samplers are left alone: ', json_encode(['places' => places(), 'parent active' => stat\sampler\active()]), "\n";
tell($socket, 'limited');
expect($socket, 'refused');
echo "limited\n";
printf("parent saw samplers=0: %s\n", json_encode(await_samplers(0)));
tell($socket, 'unlimited');
expect($socket, 'done');
pcntl_waitpid($pid, $status);
printf("child exit: %s\n", pcntl_wifexited($status) ? pcntl_wexitstatus($status) : "signal " . pcntl_wtermsig($status));
$c = stat\counters();
echo 'counters: ', json_encode(['samplers_started' => $c['samplers_started'], 'samplers_refused' => $c['samplers_refused'],
    'control_applied' => $c['control_applied'], 'control_invalid' => $c['control_invalid']]), "\n";
PHP);

var_dump($child->waitFor("both active: "));
ctl_send($control, ctl_message(CTL_SAMPLERS, 1));
var_dump($child->waitFor("limited\n"));
ctl_send($control, ctl_message(CTL_SAMPLERS, 0));
var_dump($child->wait());
echo $child->stdout();
var_dump($child->stderr());
?>
--EXPECT--
bool(true)
bool(true)
int(0)
both active: {"parent activate":true,"places":2,"samplers":0}
parent saw samplers=1: true
running samplers are left alone: {"places":2,"parent active":true}
child under samplers=1: {"child activate":true,"child saw samplers=1":true,"child still active":true,"child deactivate":true,"child activate again":false}
limited
parent saw samplers=0: true
child under samplers=0: {"child saw samplers=0":true,"child activate":true,"places":2}
child exit: 0
counters: {"samplers_started":3,"samplers_refused":1,"control_applied":2,"control_invalid":0}
string(0) ""
