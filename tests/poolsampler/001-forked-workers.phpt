--TEST--
poolsampler: stat.sampler=pool samples a CLI parent and four pcntl_fork() workers from one process: each is sampled in its own function, with its own pid, without calling anything after the fork; no PHP process has a thread of its own; the one pool sampler is named "stat pool" and holds a descriptor of each process's memory
--SKIPIF--
<?php require __DIR__ . '/poolsampler.inc'; if ($why = stat_poolsampler_skip()) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';

$dir = stat_test_dir();
$script = "<?php\n" . stat_poolsampler_busy('parent_p') . stat_poolsampler_busy('worker_a') . stat_poolsampler_busy('worker_b')
    . stat_poolsampler_busy('worker_c') . stat_poolsampler_busy('worker_d') . <<<'PHP'
$threads = fn() => count(glob('/proc/self/task/*'));
$pool = stat\settings()['pool']['pid'] ?? 0;
echo "ready\n";
fgets(STDIN);
$pids = [];
foreach (['worker_a', 'worker_b', 'worker_c', 'worker_d'] as $f) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $f(0.2);
        /* the pool sampler holds this process's memory by now (handed over at the fork) */
        /* (one write: the workers share the pipe) */
        echo "$f " . getmypid() . " threads " . $threads() . " active " . var_export(stat\sampler\active(), true) . "\n";
        $f(0.6);
        exit(0);
    }
    $pids[] = $pid;
}
parent_p(0.2);
/* the handovers are datagrams the pool sampler takes between ticks: looked at until it holds all five, for up to 10 s */
$end = hrtime(true) + 10e9;
do {
    $held = [];
    foreach (glob("/proc/$pool/fd/*") ?: [] as $fd) {
        if (preg_match('#^/proc/(\d+)/mem$#', (string) @readlink($fd), $m)) {
            $held[] = (int) $m[1];
        }
    }
    $missing = array_diff(array_merge([getmypid()], $pids), $held);
} while ($missing && hrtime(true) < $end && parent_p(0.02) >= 0);
parent_p(0.6);
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
sort($held);
echo "parent ", getmypid(), " threads ", $threads(), " pool ", $pool, " ", trim((string) @file_get_contents("/proc/$pool/comm")), " holds ", json_encode($held), "\n";
echo "done\n";
PHP;
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.sampler' => 'pool', 'stat.interval' => '1000'], $script);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump(stat_stream_read_while($child, [$stream], "done\n"));
$stream->readUntil(fn() => false, 0.3);
var_dump($child->wait(), $child->stderr());

$out = $child->stdout();
preg_match_all('/^(worker_\w) (\d+) threads (\d+) active (\w+)$/m', $out, $workers, PREG_SET_ORDER);
usort($workers, fn($a, $b) => strcmp($a[1], $b[1]));
preg_match('/^parent (\d+) threads (\d+) pool (\d+) (.*) holds (.*)$/m', $out, $parent);
printf("four workers reported: %s\n", count($workers) === 4 ? 'yes' : "no: $out");
printf("one thread in every PHP process: %s\n", ($parent[2] ?? '') === '1' && count(array_filter($workers, fn($w) => $w[3] !== '1')) === 0 ? 'yes' : "no: $out");
printf("every worker sampled from the fork on (active): %s\n", count(array_filter($workers, fn($w) => $w[4] === 'true')) === 4 ? 'yes' : "no: $out");
printf("the pool sampler: %s\n", ($parent[3] ?? '0') !== '0' && ($parent[4] ?? '') === 'stat pool' ? 'yes' : "no: $out");
$held = json_decode($parent[5] ?? '[]', true) ?: [];
$all = array_merge([(int) ($parent[1] ?? 0)], array_map(fn($w) => (int) $w[2], $workers));
printf("it holds every process's memory: %s\n", !array_diff($all, $held) ? 'yes' : 'no: ' . json_encode([$all, $held]));

/* each process's samples: at least 100 (0.8 s at 1 ms), nearly all in its own function (or in hrtime() under it) */
$functions = ['parent_p' => (int) ($parent[1] ?? 0)];
foreach ($workers as $w) {
    $functions[$w[1]] = (int) $w[2];
}
foreach ($functions as $function => $pid) {
    $mine = array_filter($stream->samples, fn($s) => $s['request']['pid'] === $pid);
    $histogram = stat_test_histogram($mine);
    $in = ($histogram[$function] ?? 0) + ($histogram['hrtime'] ?? 0);
    printf("%s: %s\n", $function, count($mine) >= 100 && $in >= 0.9 * count($mine) ? 'sampled in its function' : json_encode([count($mine), $histogram]));
}
$others = array_filter($stream->samples, fn($s) => !in_array($s['request']['pid'], $functions, true));
printf("no sample of another process: %s, invalid lines: %d\n", $others ? 'no' : 'yes', count($stream->invalid));
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
four workers reported: yes
one thread in every PHP process: yes
every worker sampled from the fork on (active): yes
the pool sampler: yes
it holds every process's memory: yes
parent_p: sampled in its function
worker_a: sampled in its function
worker_b: sampled in its function
worker_c: sampled in its function
worker_d: sampled in its function
no sample of another process: yes, invalid lines: 0
