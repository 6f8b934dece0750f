--TEST--
control: a forked child killed with SIGKILL while holding the only sampler place does not leak it
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl is not available'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$ini = ['stat.samplers' => '1', 'stat.auto' => '0', 'stat.interval' => '500'];
$posix = PHP_EXTENSION_DIR . '/posix.so';
if (!extension_loaded('posix') && is_file($posix)) {
    $ini['extension'] = $posix;
}
$child = new StatChild($ini, "<?php\n" . CTL_FORK_PRELUDE . <<<'PHP'

function kill9(int $pid): bool {
    if (function_exists('posix_kill')) {
        return posix_kill($pid, 9);
    }
    exec('kill -9 ' . (int) $pid, $output, $code);
    return $code === 0;
}
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    tell($theirs, stat\sampler\activate() ? 'holding' : 'refused');
    busy(30); /* until killed */
    exit(0);
}
expect($mine, 'holding');
$r = ['parent activate' => stat\sampler\activate(), 'places' => places()];
echo 'child holds the place: ', json_encode($r), "\n";
$r = ['kill' => kill9($pid), 'reaped' => pcntl_waitpid($pid, $status) === $pid, 'signal' => pcntl_wtermsig($status)];
echo 'SIGKILL: ', json_encode($r), "\n";
$r = ['places' => places(), 'parent activate' => stat\sampler\activate(), 'parent active' => stat\sampler\active()];
echo 'after the kill: ', json_encode($r), "\n";
busy(0.02);
/* and the place is a real one: a second forked child is refused while the parent holds it */
$pid = pcntl_fork();
if ($pid === 0) {
    tell($theirs, stat\sampler\activate() ? 'holding' : 'refused');
    exit(0);
}
expect($mine, 'refused');
pcntl_waitpid($pid, $status);
echo "second child refused\n";
$c = stat\counters();
echo 'counters: ', json_encode(['samplers_started' => $c['samplers_started'], 'samplers_refused' => $c['samplers_refused'], 'samplers_active' => $c['samplers_active']]), "\n";
PHP);

var_dump($child->wait());
echo $child->stdout();
var_dump($child->stderr());
?>
--EXPECT--
int(0)
child holds the place: {"parent activate":false,"places":1}
SIGKILL: {"kill":true,"reaped":true,"signal":9}
after the kill: {"places":0,"parent activate":true,"parent active":true}
second child refused
counters: {"samplers_started":2,"samplers_refused":2,"samplers_active":1}
string(0) ""
