--TEST--
stream: a forked child samples into the same ring (its samples reach the parent's clients), and its exit leaves the parent's socket and listener alone
--SKIPIF--
<?php
require __DIR__ . '/../utils.inc';
$c = new StatChild([], '<?php echo function_exists("pcntl_fork") ? "yes" : "no";');
$c->wait();
if ($c->stdout() !== 'yes') die('skip pcntl_fork is not available in the child');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$script = <<<'PHP'
<?php
function parent_work(int $n): int { return $n < 2 ? $n : parent_work($n - 1) + parent_work($n - 2); }
function child_work(int $n): int { return $n < 2 ? $n : child_work($n - 1) + child_work($n - 2); }
/* at least $seconds and $samples more samples written, at most 20 s */
function burn(callable $f, float $seconds, int $samples): void {
    $start = microtime(true);
    $until = stat\counters()['samples_written'] + $samples;
    while ((microtime(true) - $start < $seconds || stat\counters()['samples_written'] < $until) && microtime(true) - $start < 20) { $f(12); }
}
echo "ready\n";
fgets(STDIN);
$pid = pcntl_fork();
if ($pid === 0) {
    /*
     * stat.sampler=request: the parent's sampler thread did not survive the
     * fork, activate() starts the child's own; pool: the child is sampled as
     * its parent was from the fork on, without calling anything
     */
    $pool = ini_get('stat.sampler') === 'pool';
    $was = stat\sampler\active();
    $started = stat\sampler\activate();
    burn('child_work', 0.2, 200);
    echo "child: sampled from the fork as its mode says: ", ($pool ? $was && !$started : !$was && $started) ? 'yes' : 'no (active ' . var_export($was, true) . ', activate ' . var_export($started, true) . ')', "\n";
    exit(0);
}
echo "pid $pid\n";
pcntl_waitpid($pid, $status);
echo "child exit ", pcntl_wexitstatus($status), "\n";
echo "forked exited\n";
fgets(STDIN);
burn('parent_work', 0.2, 200);
echo "end\n";
PHP;
$child = new StatChild(['stat.stream' => "$dir/stream.sock"], $script);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump(stat_stream_read_while($child, [$stream], "forked exited\n"));
preg_match('/^pid (\d+)$/m', $child->stdout(), $m);
$forked = (int) $m[1];
clearstatcache();
printf("socket file still there: %s\n", @filetype("$dir/stream.sock") === 'socket' ? 'yes' : 'no');
/* a new client after the forked child exited: the parent's listener still accepts */
$late = new StatStream("$dir/stream.sock", 5.0);
$child->send("more\n");
var_dump(stat_stream_read_while($child, [$stream, $late], "end\n"));
$eof = stat_stream_read_all([$stream, $late]);
var_dump($child->wait(), $eof, $child->stderr());
echo preg_replace('/^(pid \d+|ready|end)\n/m', '', $child->stdout());
var_dump($stream->invalid, $late->invalid);
$byPid = fn(StatStream $s) => array_count_values(array_map(fn($x) => $x['request']['pid'], $s->samples));
$pids = $byPid($stream);
printf("first client has the parent's and the forked child's samples: %s\n", ($pids[$child->pid()] ?? 0) > 0 && ($pids[$forked] ?? 0) > 0 && count($pids) === 2 ? 'yes' : 'no (' . json_encode($pids) . ')');
$forkedSymbols = stat_test_histogram(array_filter($stream->samples, fn($s) => $s['request']['pid'] === $forked));
printf("the forked child's samples name child_work: %s\n", isset($forkedSymbols['child_work']) ? 'yes' : 'no');
$lateSymbols = stat_test_histogram(array_filter($late->samples, fn($s) => $s['request']['pid'] === $child->pid()));
printf("late client gets the parent's new samples: %s\n", isset($lateSymbols['parent_work']) ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
bool(true)
socket file still there: yes
bool(true)
int(0)
bool(true)
string(0) ""
child: sampled from the fork as its mode says: yes
child exit 0
forked exited
array(0) {
}
array(0) {
}
first client has the parent's and the forked child's samples: yes
the forked child's samples name child_work: yes
late client gets the parent's new samples: yes
