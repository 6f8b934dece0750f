--TEST--
poolsampler: stat.pool_rate bounds the pool sampler's samples a second: past it every request's interval grows alike (five busy processes at 1 ms under a bound of 1,000 a second: each at 5 ms, each with its fifth of the samples), the status line and stat\settings() say the interval in force, and the bound is changed live by the control socket (pool_rate 0: back to 1 ms)
--SKIPIF--
<?php require __DIR__ . '/poolsampler.inc'; if ($why = stat_poolsampler_skip()) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';
require __DIR__ . '/../control/control.inc';

const CTL_POOL_RATE = 1 << 8;
$dir = stat_test_dir();
$script = "<?php\n" . stat_poolsampler_busy('work') . <<<'PHP'
$pids = [];
for ($i = 0; $i < 4; $i++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        work(1.5);
        /* (until killed: STDIN is the parent's) */
        for (;;) {
            usleep(100000);
        }
    }
    $pids[] = $pid;
}
work(1.5);
$pool = stat\settings()['pool'];
echo json_encode(['pids' => array_merge([getmypid()], $pids), 'interval' => $pool['interval'], 'active' => $pool['active'], 'rate' => stat\settings()['pool_rate']]), "\n";
fgets(STDIN);
/* the bound lifted by control: the interval back to stat.interval */
$end = hrtime(true) + 20e9;
while (stat\settings()['pool']['interval'] !== 1000 && hrtime(true) < $end) {
    work(0.01);
}
$pool = stat\settings()['pool'];
echo json_encode(['interval' => $pool['interval'], 'rate' => stat\settings()['pool_rate']]), "\n";
foreach ($pids as $pid) {
    exec("kill -9 $pid");
    pcntl_waitpid($pid, $status);
}
PHP;
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => "unix://$dir/control.sock",
    'stat.sampler' => 'pool', 'stat.interval' => '1000', 'stat.pool_rate' => '1000', 'stat.samples' => '65536'], $script);
$stream = new StatStream("$dir/stream.sock");
var_dump(stat_stream_read_while($child, [$stream], "}\n"));
$first = json_decode(explode("\n", $child->stdout())[0], true) ?: [];
printf("bounded: %s\n", ($first['rate'] ?? 0) === 1000 && ($first['active'] ?? 0) === 5 && ($first['interval'] ?? 0) === 5000
    ? 'five requests at 5000 us' : json_encode($first));
/* each process its fifth of the samples taken while all five ran */
$pids = $first['pids'] ?? [];
$counts = array_fill_keys($pids, 0);
foreach ($stream->samples as $s) {
    if (isset($counts[$s['request']['pid']])) {
        $counts[$s['request']['pid']]++;
    }
}
$total = array_sum($counts);
$even = $total >= 250 && min($counts) >= 0.6 * $total / 5 && max($counts) <= 1.4 * $total / 5;
printf("thinned evenly: %s\n", $even ? 'yes' : json_encode($counts));
/* a new client's status line says the interval in force */
$late = new StatStream("$dir/stream.sock");
$late->readUntil(fn($s) => $s->status !== null);
$settings = $late->status['settings'] ?? [];
printf("status line: %s\n", ($settings['sampler'] ?? '') === 'pool' && ($settings['pool_rate'] ?? 0) === 1000 && ($settings['pool']['interval'] ?? 0) === 5000
    && ($settings['pool']['active'] ?? 0) === 5 ? 'pool, rate 1000, interval 5000 for 5' : json_encode($settings));
$late->close();
ctl_send("$dir/control.sock", ctl_message(CTL_POOL_RATE, 0));
$child->send("go\n");
var_dump(stat_stream_read_while($child, [$stream], "\"rate\":0}\n"));
$lines = explode("\n", trim($child->stdout()));
printf("lifted: %s\n", end($lines) === '{"interval":1000,"rate":0}' ? 'yes' : end($lines));
var_dump($child->wait(), $child->stderr());
?>
--EXPECT--
bool(true)
bounded: five requests at 5000 us
thinned evenly: yes
status line: pool, rate 1000, interval 5000 for 5
bool(true)
lifted: yes
int(0)
string(0) ""
