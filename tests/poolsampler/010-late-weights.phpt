--TEST--
poolsampler: a tick 400 ms late (the pool sampler stopped) while PHP ran spreads the intervals PHP ran through over the request's next samples (the late sample keeps only those PHP stood in, and an eighth of the rest); while PHP was stopped too, the late sample stands for them all (PHP stood there); either way the weights add up to the time between the request's first and last samples
--SKIPIF--
<?php require __DIR__ . '/poolsampler.inc'; if ($why = stat_poolsampler_skip()) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';
require __DIR__ . '/../pool/pool.inc';

/*
 * At 1 ms the pool sampler is on time (1,000 samples a second of one
 * request): the only late tick of a phase is the one the test makes, by
 * stopping the pool sampler for 400 ms (400 intervals) in the middle of it.
 * In "ran", PHP runs on meanwhile; in "stood", PHP is stopped too, and the
 * pool sampler is let go first, so that its late tick finds PHP where it
 * stood. The child times itself with hrtime(): the ground truth the
 * weights must add up to. Each phase ends when the test says so (a line on
 * the child's stdin), so that the stall is inside it however slowly the
 * machine runs.
 *
 * What PHP ran is read from /proc (its CPU time, every 5 ms): on a busy
 * machine PHP may get only part of a CPU while the pool sampler waits, and
 * the intervals it did not run in it stood where the late tick finds it,
 * rightly on that sample. So the bound on the heaviest sample of "ran" is
 * what spreading leaves on it, in the window it stands for: the intervals
 * PHP stood, and an eighth of those it ran (weighted on the late sample
 * alone, it was the whole window).
 */
$dir = stat_test_dir();
$dump = "$dir/dump.jsonl";
$phase = static fn (string $name): string => "function $name(): int { \$x = 0; \$next = 0; while (true) { "
    . "for (\$i = 0; \$i < 1000; \$i++) { \$x += \$i; } if (hrtime(true) < \$next) { continue; } \$next = hrtime(true) + 1000000; "
    . "\$r = [STDIN]; \$w = \$e = null; if (stream_select(\$r, \$w, \$e, 0) > 0) { fgets(STDIN); return \$x; } } }\n";
$script = "<?php\n\$begun = hrtime(true);\n" . $phase('ran') . $phase('stood') . stat_poolsampler_busy('between') . <<<'PHP'
echo "pool ", stat\settings()['pool']['pid'] ?? 0, "\n";
between(0.2);
$t = hrtime(true);
echo "ran\n";
ran();
$ran = hrtime(true) - $t;
between(0.2);
$t = hrtime(true);
echo "stood\n";
stood();
$stood = hrtime(true) - $t;
between(0.2);
printf("time %d %d %d\n", $ran / 1000, $stood / 1000, (hrtime(true) - $begun) / 1000);
PHP;
$child = new StatChild(['stat.sampler' => 'pool', 'stat.interval' => '1000', 'stat.stack' => '8', 'stat.samples' => '20000',
    'stat.dump' => '3'], $script, [3 => ['file', $dump, 'w']]);
$child->waitFor("\n");
preg_match('/^pool (\d+)$/m', $child->stdout(), $m);
$pool = (int) ($m[1] ?? 0);
printf("pool sampler: %s\n", $pool > 0 ? 'yes' : 'no');

/* a process's CPU time in ms (utime + stime, in clock ticks of 10 ms) */
$cpu = static function (int $pid): int {
    $stat = (string) @file_get_contents("/proc/$pid/stat");
    $fields = explode(' ', substr($stat, (int) strrpos($stat, ')') + 2));
    return ((int) ($fields[11] ?? 0) + (int) ($fields[12] ?? 0)) * 10;
};

/* how many times a process has left its CPU (it sleeps between ticks) */
$switched = static function (int $pid): int {
    preg_match_all('/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/m', (string) @file_get_contents("/proc/$pid/status"), $m);
    return array_sum(array_map('intval', $m[1]));
};

/*
 * PHP's CPU time through a stretch of `seconds`, every 5 ms: [wall time
 * (as a sample's "time"), CPU ms] pairs, to tell what PHP ran in the window
 * any sample stands for.
 */
$timeline = [];
$watch = static function (float $seconds) use (&$timeline, $cpu, $child): void {
    $end = microtime(true) + $seconds;
    do {
        $timeline[] = [microtime(true), $cpu($child->pid())];
        usleep(5000);
    } while (microtime(true) < $end);
};
/* PHP's CPU ms at wall time $at, from the timeline (the nearest point before) */
$cpuAt = static function (float $at) use (&$timeline): int {
    $found = $timeline[0][1] ?? 0;
    foreach ($timeline as [$when, $ms]) {
        if ($when > $at) {
            break;
        }
        $found = $ms;
    }
    return $found;
};

/* (the stall is what the test makes, not a wait for something: its length is the point) */
var_dump($child->waitFor("ran\n"));
$watch(0.3);
stat_pool_kill($pool, SIGSTOP);
$watch(0.4);
stat_pool_kill($pool, SIGCONT);
$watch(0.5);
$child->send("end\n");

var_dump($child->waitFor("stood\n"));
usleep(300000);
stat_pool_kill($pool, SIGSTOP);
stat_pool_kill($child->pid(), SIGSTOP);
/* (the stall PHP stood in at least: from both stopped to just before the pool sampler is let go; kill(1) takes a while on a loaded machine) */
$t = hrtime(true);
usleep(400000);
/* the pool sampler's late tick reads PHP still stopped: let it run (it has slept again), and 20 ticks more */
$switches = $switched($pool);
$stall = (int) ((hrtime(true) - $t) / 1000000);
stat_pool_kill($pool, SIGCONT);
stat_pool_until(fn () => $switched($pool) > $switches, 5.0);
usleep(20000);
stat_pool_kill($child->pid(), SIGCONT);
usleep(500000);
$child->send("end\n");

var_dump($child->wait(), $child->stderr());
preg_match('/^time (\d+) (\d+) (\d+)$/m', $child->stdout(), $m);
$time = ['ran' => (int) ($m[1] ?? 0), 'stood' => (int) ($m[2] ?? 0), 'all' => (int) ($m[3] ?? 0)];

$weights = ['ran' => [], 'stood' => []];
$heaviest = ['ran' => null, 'stood' => null];
$previous = null;
$all = 0;
$span = [];
foreach (file($dump) as $line) {
    $sample = json_decode($line, true);
    $all += $sample['weight'] ?? 1;
    $span[] = $sample['time'];
    /* (the phase's function, or stream_select within it) */
    foreach ($sample['stack'] ?? [] as $frame) {
        $phase = $frame['function'] ?? '';
        if (isset($weights[$phase])) {
            $weight = $sample['weight'] ?? 1;
            $weights[$phase][] = $weight;
            if ($weight > ($heaviest[$phase][0] ?? 0)) {
                $heaviest[$phase] = [$weight, $previous['time'] ?? $sample['time'], $sample['time']];
            }
            break;
        }
    }
    $previous = $sample;
}
/*
 * The heaviest "ran" may weigh what stat_sampler_weight leaves on a late
 * sample: the intervals of its window (since the sample before it) that
 * PHP stood in, and an eighth of those it ran, with a tenth of the window
 * and 20 intervals for the edges (the CPU time's ticks of 10 ms). On the
 * code before, it weighed the whole window.
 */
[$max, $from, $to] = $heaviest['ran'] ?? [0, 0, 0];
$window = (int) round(($to - $from) * 1000);
$php = min($window, max(0, $cpuAt($to) - $cpuAt($from)));
$bound = 1 + ($window - $php) + (int) ceil($php / 8) + (int) ($window / 10) + 20;
/*
 * The weights add up to the time from the request's first sample to its
 * last (their times), where the stalls are: every interval in it is in one
 * sample's weight. (Not from the script's first line: on a loaded machine
 * the pool sampler can wake up to a new request late, and a request's first
 * sample stands for its own interval only. Nor a phase's own sum: a late
 * tick's weight can fall across a phase's edge, a stall that began in one
 * phase and ended in the next.) The script's hrtime() of the whole bounds it.
 */
$intervals = $span ? (int) round((max($span) - min($span)) * 1000) + 1 : 0;
printf("the weights %s the time, which the script's covers: %s\n",
    abs($all - $intervals) <= 0.05 * $intervals ? 'add up to' : "add up to $all intervals, not $intervals: not",
    $intervals > 2000 && $intervals <= $time['all'] / 1000 + 20 ? 'yes' : "no ($intervals intervals, the script {$time['all']} us)");
foreach ($weights as $phase => $list) {
    $max = $list ? max($list) : 0;
    printf("%s: %s samples, the heaviest %s\n", $phase, count($list) >= 100 ? 'enough' : count($list),
        match ($phase) {
            'ran' => $max <= $bound ? 'carries its window only as far as PHP stood in it'
                : "weighs $max (its window $window ms, PHP ran $php ms of it: at most $bound)",
            'stood' => $max >= 0.75 * $stall ? 'stands for the stall' : "weighs $max (the stall $stall ms)",
        });
}
?>
--EXPECT--
pool sampler: yes
bool(true)
bool(true)
int(0)
string(0) ""
the weights add up to the time, which the script's covers: yes
ran: enough samples, the heaviest carries its window only as far as PHP stood in it
stood: enough samples, the heaviest stands for the stall
