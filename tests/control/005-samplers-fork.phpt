--TEST--
control: stat.samplers=1 holds across a parent and its pcntl_fork()ed child: one samples at a time
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl is not available'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.samplers' => '1', 'stat.auto' => '0',
    'stat.interval' => '200'], "<?php\n" . CTL_FORK_PRELUDE . <<<'PHP'

echo "ready\n";
fgets(STDIN);
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    $socket = $theirs;
    expect($socket, 'parent samples');
    $r = ['child activate' => stat\sampler\activate(), 'child active' => stat\sampler\active(),
          'refused' => stat\counters()['samplers_refused'], 'places' => places()];
    echo 'child, parent sampling: ', json_encode($r), "\n";
    tell($socket, 'refused');
    expect($socket, 'parent stopped');
    $r = ['child activate' => stat\sampler\activate(), 'child active' => stat\sampler\active(), 'places' => places()];
    echo 'child, parent stopped: ', json_encode($r), "\n";
    $r = ['child sampled' => sampled(10)];
    echo 'child samples: ', json_encode($r), "\n";
    tell($socket, 'child samples');
    expect($socket, 'refused');
    $r = ['child deactivate' => stat\sampler\deactivate(), 'places' => places()];
    echo 'child stops: ', json_encode($r), "\n";
    tell($socket, 'child stopped');
    exit(0);
}
$socket = $mine;
echo "child ", $pid, "\n";
$r = ['parent activate' => stat\sampler\activate(), 'places' => places()];
echo 'parent alone: ', json_encode($r + ['parent sampled' => sampled(10)]), "\n";
tell($socket, 'parent samples');
expect($socket, 'refused');
$r = ['parent deactivate' => stat\sampler\deactivate(), 'places' => places()];
echo 'parent stops: ', json_encode($r), "\n";
tell($socket, 'parent stopped');
expect($socket, 'child samples');
$r = ['parent activate' => stat\sampler\activate(), 'parent active' => stat\sampler\active(),
      'refused' => stat\counters()['samplers_refused']];
echo 'parent, child sampling: ', json_encode($r), "\n";
tell($socket, 'refused');
expect($socket, 'child stopped');
pcntl_waitpid($pid, $status);
$r = ['child exit' => pcntl_wifexited($status) ? pcntl_wexitstatus($status) : 'signal ' . pcntl_wtermsig($status), 'parent activate' => stat\sampler\activate(), 'places' => places()];
echo 'parent, child gone: ', json_encode($r + ['parent sampled' => sampled(10)]), "\n";
$c = stat\counters();
echo 'counters: ', json_encode(['samplers_started' => $c['samplers_started'], 'samplers_refused' => $c['samplers_refused']]), "\n";
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
/* to EOF while the child exits (it gives stream clients about a second to take the rest) */
var_dump($stream->readAll());
var_dump($child->wait());
preg_match('/^child (\d+)$/m', $child->stdout(), $forked);
echo preg_replace('/^(ready|child \d+)\n/m', '', $child->stdout());

/* sorted by time, the samples come from one process at a time: parent, child, parent */
$samples = $stream->samples;
usort($samples, fn($a, $b) => $a['elapsed'] <=> $b['elapsed']);
$runs = [];
foreach ($samples as $sample) {
    $who = $sample['request']['pid'] === $child->pid() ? 'parent' : ($sample['request']['pid'] === (int) $forked[1] ? 'child' : 'other');
    if (end($runs) !== $who) {
        $runs[] = $who;
    }
}
echo "sampling, in time order: ", implode(' ', $runs), "\n";
var_dump($stream->invalid, $child->stderr());
?>
--EXPECT--
bool(true)
bool(true)
int(0)
parent alone: {"parent activate":true,"places":1,"parent sampled":true}
child, parent sampling: {"child activate":false,"child active":false,"refused":1,"places":1}
parent stops: {"parent deactivate":true,"places":0}
child, parent stopped: {"child activate":true,"child active":true,"places":1}
child samples: {"child sampled":true}
parent, child sampling: {"parent activate":false,"parent active":false,"refused":2}
child stops: {"child deactivate":true,"places":0}
parent, child gone: {"child exit":0,"parent activate":true,"places":1,"parent sampled":true}
counters: {"samplers_started":3,"samplers_refused":2}
sampling, in time order: parent child parent
array(0) {
}
string(0) ""
