--TEST--
poolsampler: a tick 400 ms late (the pool sampler stopped) while PHP ran spreads the intervals PHP ran through over the request's next samples (no sample stands for even half of them); while PHP was stopped too, the late sample stands for them all (PHP stood there); either way the weights add up to the time (hrtime)
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
 * stood. The child times each phase with hrtime(): the ground truth the
 * weights must add up to.
 */
$dir = stat_test_dir();
$dump = "$dir/dump.jsonl";
$script = "<?php\n" . stat_poolsampler_busy('ran') . stat_poolsampler_busy('stood') . stat_poolsampler_busy('between') . <<<'PHP'
echo "pool ", stat\settings()['pool']['pid'] ?? 0, "\n";
between(0.2);
$t = hrtime(true);
echo "ran\n";
ran(1.5);
$ran = hrtime(true) - $t;
between(0.2);
$t = hrtime(true);
echo "stood\n";
stood(1.5);
$stood = hrtime(true) - $t;
between(0.2);
printf("time %d %d\n", $ran / 1000, $stood / 1000);
PHP;
$child = new StatChild(['stat.sampler' => 'pool', 'stat.interval' => '1000', 'stat.stack' => '8', 'stat.samples' => '20000',
    'stat.dump' => '3'], $script, [3 => ['file', $dump, 'w']]);
$child->waitFor("\n");
preg_match('/^pool (\d+)$/m', $child->stdout(), $m);
$pool = (int) ($m[1] ?? 0);
printf("pool sampler: %s\n", $pool > 0 ? 'yes' : 'no');

/* (the stall is what the test makes, not a wait for something: its length is the point) */
var_dump($child->waitFor("ran\n"));
usleep(300000);
stat_pool_kill($pool, SIGSTOP);
usleep(400000);
stat_pool_kill($pool, SIGCONT);

var_dump($child->waitFor("stood\n"));
usleep(300000);
stat_pool_kill($pool, SIGSTOP);
stat_pool_kill($child->pid(), SIGSTOP);
usleep(400000);
stat_pool_kill($pool, SIGCONT);
/* the pool sampler's late tick reads PHP still stopped (it ticks every ms; given 20) */
usleep(20000);
stat_pool_kill($child->pid(), SIGCONT);

var_dump($child->wait(), $child->stderr());
preg_match('/^time (\d+) (\d+)$/m', $child->stdout(), $m);
$time = ['ran' => (int) ($m[1] ?? 0), 'stood' => (int) ($m[2] ?? 0)];

$weights = ['ran' => [], 'stood' => []];
foreach (file($dump) as $line) {
    $sample = json_decode($line, true);
    $function = $sample['stack'][0]['function'] ?? null;
    if (isset($weights[$function])) {
        $weights[$function][] = $sample['weight'] ?? 1;
    }
}
foreach ($weights as $phase => $list) {
    $sum = array_sum($list);
    $max = $list ? max($list) : 0;
    /* in intervals of 1 ms: the phase's time */
    $intervals = $time[$phase] / 1000;
    printf("%s: %s samples, the weights %s the time, the heaviest %s\n", $phase, count($list) >= 500 ? 'enough' : count($list),
        abs($sum - $intervals) <= 0.1 * $intervals ? 'add up to' : "add up to $sum intervals, not $intervals: not",
        match ($phase) {
            'ran' => $max < 200 ? 'stands for less than half the stall' : "weighs $max",
            'stood' => $max >= 300 ? 'stands for the stall' : "weighs $max",
        });
}
?>
--EXPECT--
pool sampler: yes
bool(true)
bool(true)
int(0)
string(0) ""
ran: enough samples, the weights add up to the time, the heaviest stands for less than half the stall
stood: enough samples, the weights add up to the time, the heaviest stands for the stall
