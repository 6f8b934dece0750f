--TEST--
control: unknown codes and out-of-range params are ignored and counted exactly; valid ones after them apply; sampling goes on
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
$worker = new CtlWorker(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => $control, 'stat.interval' => '1000']);
$before = $worker->report()['settings'];
$stream = new StatStream("$dir/stream.sock");

$unknown = [[1 << 9, 1], [0, 100], [-1, 100], [1, 1], [1 << 10, 0], [PHP_INT_MIN, 0], [PHP_INT_MAX, 0],
    [CTL_AUTO | CTL_INTERVAL, 100]];
$range = [[CTL_INTERVAL, 5], [CTL_INTERVAL, 9], [CTL_INTERVAL, -1], [CTL_INTERVAL, 0], [CTL_INTERVAL, PHP_INT_MAX],
    [CTL_INTERVAL, 10000001], [CTL_INTERVAL, PHP_INT_MIN], [CTL_AUTO, 2], [CTL_AUTO, -1], [CTL_SAMPLERS, -1],
    [CTL_SAMPLERS, PHP_INT_MIN], [CTL_ARGINFO, 2], [CTL_ARGINFO, -1], [CTL_STACK, -1]];
/* the smallest interval is valid; then a usual one */
$valid = [[CTL_INTERVAL, 10], [CTL_INTERVAL, 2000]];
printf("invalid messages sent: %d\n", count($unknown) + count($range));

/* all in one write on one connection: applied in order */
ctl_send($control, ctl_messages(array_merge($unknown, $range, $valid)));
$state = $worker->await('counters', 'control_applied', '>=', 2);
printf("valid ones applied: %s\n", json_encode($state['met']));
printf("counters: applied %d, invalid %d\n", $state['counters']['control_applied'], $state['counters']['control_invalid']);
$changed = ctl_changed($state['settings'], $before);
printf("settings changed: %s (interval %d)\n", implode(',', $changed), $state['settings']['interval']);

/* the same kinds of message, one connection each: the same count */
foreach (array_merge($unknown, $range) as [$code, $param]) {
    ctl_send($control, ctl_message($code, $param));
}
ctl_send($control, ctl_message(CTL_INTERVAL, 3000));
$state = $worker->await('settings', 'interval', '==', 3000);
$state = $worker->await('counters', 'control_invalid', '>=', 44);
printf("one per connection: applied %d, invalid %d\n", $state['counters']['control_applied'], $state['counters']['control_invalid']);

/* still sampling: samples taken after all that arrive on the stream */
printf("samples after the bad input: %s\n", ctl_sampled_after($stream, $state['elapsed']) ? 'yes' : 'no');
foreach ($worker->ask('phpinfo')['phpinfo'] as $line) {
    if (preg_match('/^(interval \(live|control messages)/', $line)) {
        echo "phpinfo: $line\n";
    }
}
[$code, $final] = $worker->finish();
var_dump($code);
printf("final: applied %d, invalid %d, interval %d\n", $final['counters']['control_applied'], $final['counters']['control_invalid'], $final['settings']['interval']);
var_dump($stream->invalid, $worker->stderr());
?>
--EXPECT--
invalid messages sent: 22
valid ones applied: true
counters: applied 2, invalid 22
settings changed: interval (interval 2000)
one per connection: applied 3, invalid 44
samples after the bad input: yes
phpinfo: interval (live, microseconds) => 3000
phpinfo: control messages applied => 3
phpinfo: control messages ignored (invalid) => 44
int(0)
final: applied 3, invalid 44, interval 3000
array(0) {
}
string(0) ""
