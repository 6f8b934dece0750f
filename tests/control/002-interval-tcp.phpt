--TEST--
control: interval 10000us -> 100us over tcp://127.0.0.1:port raises the sample rate on the stream
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$control = "tcp://127.0.0.1:" . stat_test_port();
$worker = new CtlWorker(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => $control, 'stat.interval' => '10000']);
$start = $worker->report();
printf("interval at start: %d\n", $start['settings']['interval']);
printf("control address: %s\n", $start['settings']['control'] === $control ? 'yes' : $start['settings']['control']);

$stream = new StatStream("$dir/stream.sock");
/* at least 0.5 s of samples at the old interval. 10 ms, not 1 ms: on a busy machine the
 * sampler may get far fewer than 10,000 ticks a second at 100 us, but it gets 300 */
var_dump($stream->readUntil(function (StatStream $s) {
    $times = array_column($s->samples, 'elapsed');
    return $times && max($times) - min($times) >= 0.5;
}));
$beforeEnd = max(array_column($stream->samples, 'elapsed'));

ctl_send($control, ctl_message(CTL_INTERVAL, 100));
$changed = $worker->await('settings', 'interval', '==', 100);
printf("child saw interval 100: %s\n", $changed['met'] ? 'yes' : 'no');

/* 0.3 s of samples at the new interval */
var_dump(ctl_sampled_after($stream, $changed['elapsed'] + 0.3));
[$before, $beforeCount] = ctl_rate($stream->samples, 0.0, $beforeEnd);
[$after, $afterCount] = ctl_rate($stream->samples, $changed['elapsed'], $changed['elapsed'] + 0.3);
printf("before: at most ~100/s: %s\n", $before > 0 && $before <= 120 ? 'yes' : "no ($before/s)");
printf("after: at least 3x before: %s\n", $after >= 3 * $before ? 'yes' : sprintf('no (%.0f/s from %d samples, before %.0f/s from %d)', $after, $afterCount, $before, $beforeCount));

[$code, $final] = $worker->finish();
var_dump($code, $final['settings']['interval'], $final['counters']['control_applied'], $final['counters']['control_invalid']);
var_dump($stream->invalid, $worker->stderr());
?>
--EXPECT--
interval at start: 10000
control address: yes
bool(true)
child saw interval 100: yes
bool(true)
before: at most ~100/s: yes
after: at least 3x before: yes
int(0)
int(100)
int(1)
int(0)
array(0) {
}
string(0) ""
