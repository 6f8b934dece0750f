--TEST--
poolsampler: a worker that gets the pid of one that ended (pid reuse, made with ns_last_pid) and claims its place is a new owner: it hands over its own memory and is sampled in its own function, never read through the old one's descriptor nor its place taken back as the old one's
--SKIPIF--
<?php
require __DIR__ . '/poolsampler.inc';
if ($why = stat_poolsampler_skip()) die("skip $why");
if (!is_writable('/proc/sys/kernel/ns_last_pid')) die('skip needs root to choose the next pid (/proc/sys/kernel/ns_last_pid)');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';

/*
 * The parent is not sampled, so that the pool sampler sleeps between the
 * workers: the first one's place is given back at its exit once it
 * sleeps (it says how many requests it saw active), and the second, forked with the first one's pid (the kernel
 * hands out ns_last_pid + 1 next, unless another process took it first:
 * then tried again), claims the same place.
 */
$dir = stat_test_dir();
$script = "<?php\n" . stat_poolsampler_busy('first') . stat_poolsampler_busy('second') . <<<'PHP'
stat\sampler\deactivate();
$first = pcntl_fork();
if ($first === 0) {
    stat\sampler\activate();
    first(0.4);
    /* gives its place back only once the pool sampler has seen no request active (and sleeps) */
    stat\sampler\deactivate();
    $end = hrtime(true) + 10e9;
    while ((stat\settings()['pool']['active'] ?? 0) > 0 && hrtime(true) < $end) {
        usleep(1000);
    }
    exit(0);
}
pcntl_waitpid($first, $status);
$second = -1;
for ($try = 0; $try < 20 && $second !== $first; $try++) {
    if ($second > 0) {
        pcntl_waitpid($second, $status);
    }
    file_put_contents('/proc/sys/kernel/ns_last_pid', (string) ($first - 1));
    $second = pcntl_fork();
    if ($second === 0) {
        if (getmypid() === $first) {
            stat\sampler\activate();
            second(0.6);
        }
        exit(0);
    }
}
pcntl_waitpid($second, $status);
echo "pids $first $second\n";
echo "done\n";
PHP;
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.sampler' => 'pool', 'stat.interval' => '1000'], $script);
$stream = new StatStream("$dir/stream.sock");
var_dump(stat_stream_read_while($child, [$stream], "done\n"));
$stream->readUntil(fn() => false, 0.3);
var_dump($child->wait(), $child->stderr());
preg_match('/^pids (\d+) (\d+)$/m', $child->stdout(), $m);
printf("the second worker got the first one's pid: %s\n", isset($m[1]) && $m[1] === $m[2] ? 'yes' : 'no: ' . $child->stdout());
$pid = (int) ($m[1] ?? 0);
foreach (['first' => 200, 'second' => 300] as $function => $least) {
    $histogram = stat_test_histogram(array_filter($stream->samples, fn($s) => $s['request']['pid'] === $pid));
    $in = $histogram[$function] ?? 0;
    printf("%s: %s\n", $function, $in >= $least ? 'sampled in its function' : json_encode($histogram));
}
printf("invalid lines: %d\n", count($stream->invalid));
?>
--EXPECT--
bool(true)
int(0)
string(0) ""
the second worker got the first one's pid: yes
first: sampled in its function
second: sampled in its function
invalid lines: 0
