--TEST--
pool faults: a storm of 50 pcntl_fork() children of a sampled CLI process (exiting at once, sampled and exiting, sampled and SIGKILLed, exit() inside a fiber): the parent's sampling goes on, no sampler place leaks, no zombie, one listener, every line valid and every position of the ring counted
--SKIPIF--
<?php
require __DIR__ . '/faults.inc';
if ($why = stat_pool_skip([])) die("skip $why");
if (!function_exists('pcntl_fork')) die('skip needs pcntl');
?>
--INI--
stat.stream=0
stat.control=0
memory_limit=1024M
--FILE--
<?php
require __DIR__ . '/faults.inc';

$dir = stat_pool_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '50', 'stat.stack' => '64'], <<<'PHP'
<?php
function work(float $seconds) { $t = microtime(true); $x = ''; while (microtime(true) - $t < $seconds) { $x = md5($x); } return $x; }
function parent_work(float $seconds) { return work($seconds); }
function child_work(float $seconds) { return work($seconds); }
echo 'ready ', getmypid(), "\n";
fgets(STDIN);
stat\sampler\activate();
parent_work(0.2);
/* the storm: 50 children forked back to back while this process is sampled */
$children = [];
for ($i = 0; $i < 50; $i++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        switch ($i % 4) {
            case 0: /* exits at once */
                exit(0);
            case 1: /* sampled, then exits */
                stat\sampler\activate();
                child_work(0.1);
                exit(stat\sampler\active() ? 1 : 2);
            case 2: /* sampled until SIGKILLed */
                stat\sampler\activate();
                child_work(60);
                exit(4);
            case 3: /* sampled, exit() inside a fiber */
                stat\sampler\activate();
                $fiber = new Fiber(function () { child_work(0.1); Fiber::suspend(); exit(3); });
                $fiber->start();
                $fiber->resume();
                exit(5);
        }
    }
    $children[$pid] = $i % 4;
}
$killed = array_keys(array_filter($children, fn($kind) => $kind === 2));
echo 'storm ', stat\elapsed(), ' ', implode(',', array_keys($children)), ' killed ', implode(',', $killed), "\nstormed\n";
/* the test kills the kind-2 children while they are sampled */
fgets(STDIN);
$statuses = [];
foreach ($children as $pid => $kind) {
    pcntl_waitpid($pid, $status);
    $code = pcntl_wifsignaled($status) ? 'signal ' . pcntl_wtermsig($status) : 'exit ' . pcntl_wexitstatus($status);
    $statuses["kind $kind: $code"] = ($statuses["kind $kind: $code"] ?? 0) + 1;
}
ksort($statuses);
echo 'statuses ', json_encode($statuses), "\n";
echo 'reaped ', stat\elapsed(), "\n";
parent_work(0.2);
echo 'parent active ', json_encode(stat\sampler\active()), "\n";
stat\sampler\deactivate();
echo 'counters ', json_encode(stat\counters()), "\n";
echo "end\n";
fgets(STDIN);
PHP);
var_dump($child->waitFor("ready "));
$parent = $child->pid();
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
$pump = fn() => $stream->readUntil(fn() => false, 0.01);
stat_test_until(function () use ($child, $pump) { $pump(); return $child->waitFor("stormed\n", 0.0); }, 30.0);
preg_match('/^storm (\S+) (\S+) killed (\S+)$/m', $child->stdout(), $m);
$stormAt = (float) ($m[1] ?? 0);
$children = array_map('intval', explode(',', $m[2] ?? ''));
/* only children of the parent are killed (never pid 0: the whole process group) */
$victims = array_values(array_filter(array_map('intval', explode(',', $m[3] ?? '')), fn($pid) => $pid > 1 && (stat_faults_proc($pid)[1] ?? 0) === $parent));
printf("50 children forked: %s\n", count($children) === 50 ? 'yes' : 'no: ' . $child->stdout() . $child->stderr());
/* each victim is killed once it was seen on the stream (or after 10 s: it runs a minute) */
$deadline = microtime(true) + 10;
while (microtime(true) < $deadline && array_diff($victims, array_unique(array_map(fn($s) => $s['request']['pid'], $stream->samples)))) {
    $pump();
}
foreach ($victims as $pid) {
    stat_pool_kill($pid, SIGKILL);
}
$child->send("killed\n");
stat_test_until(function () use ($child, $pump) { $pump(); return $child->waitFor("end\n", 0.0); }, 60.0);
echo preg_match('/^statuses (.*)$/m', $child->stdout(), $m) ? "children: $m[1]\n" : 'no statuses: ' . $child->stdout() . $child->stderr() . "\n";
echo preg_match('/^parent active (.*)$/m', $child->stdout(), $m) ? "parent still sampled after the storm: $m[1]\n" : "?\n";
printf("no zombie left: %s\n", stat_faults_zombies([$parent]) === [] ? 'yes' : 'no');
printf("one listener: %s\n", count(stat_test_listeners($parent)) === 1 ? 'yes' : json_encode(stat_test_listeners($parent)));
$counters = json_decode(preg_match('/^counters (.*)$/m', $child->stdout(), $m) ? $m[1] : 'null', true);
printf("samplers running after: %s\n", json_encode($counters['samplers_active'] ?? null));
printf("samplers started: %s\n", ($counters['samplers_started'] ?? 0) >= 1 + 3 * 12 ? 'parent and the sampled children' : json_encode($counters));

/*
 * Every position of the ring a sampler took is received or counted lost.
 * Positions taken are the samples written and dropped, and those of a child
 * SIGKILLed between taking its position and counting it (at most one each).
 */
$head = $counters['ring_head'] ?? -1;
$counted = ($counters['samples_written'] ?? 0) + ($counters['samples_dropped'] ?? 0);
printf("positions taken: written + dropped + at most one per child killed: %s\n", $head >= $counted && $head <= $counted + count($victims) ? 'yes' : "no ($head, $counted)");
$complete = $stream->readUntil(fn($s) => count($s->samples) + array_sum(array_column($s->lost, 'count')) >= $head, 30.0);
printf("received + lost = positions taken: %s\n", $complete && count($stream->samples) + array_sum(array_column($stream->lost, 'count')) === $head ? 'yes' : 'no');
/* every sample is of this process or one of its children */
var_dump($child->wait());
$pids = array_count_values(array_map(fn($s) => $s['request']['pid'], $stream->samples));
printf("samples only from the parent and its children: %s\n", !array_diff(array_keys($pids), array_merge([$parent], $children)) ? 'yes' : json_encode(array_keys($pids)));
printf("sampled children: %s\n", count(array_intersect(array_keys($pids), $children)) > 0 ? 'some' : 'none');
$after = array_filter($stream->samples, fn($s) => $s['request']['pid'] === $parent && $s['elapsed'] > $stormAt && stat_test_symbol($s) !== '-');
printf("parent samples after the storm: %s\n", $after ? 'yes' : 'no');
printf("invalid lines: %d, broken end: %s\n", count($stream->invalid), json_encode($stream->rest()));
printf("stderr: %s\n", json_encode($child->stderr()));
$left = stat_faults_wait_reaped(array_merge([$parent], $children));
printf("every process gone: %s\n", $left ? json_encode($left) : 'yes');
printf("stream socket removed: %s\n", stat_test_wait_gone("$dir/stream.sock", 10.0) ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
50 children forked: yes
children: {"kind 0: exit 0":13,"kind 1: exit 1":13,"kind 2: signal 9":12,"kind 3: exit 3":12}
parent still sampled after the storm: true
no zombie left: yes
one listener: yes
samplers running after: 0
samplers started: parent and the sampled children
positions taken: written + dropped + at most one per child killed: yes
received + lost = positions taken: yes
int(0)
samples only from the parent and its children: yes
sampled children: some
parent samples after the storm: yes
invalid lines: 0, broken end: ""
stderr: ""
every process gone: yes
stream socket removed: yes
