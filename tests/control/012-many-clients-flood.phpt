--TEST--
control: 50 concurrent clients and a flood of 10,000 messages all apply, in order per client; sampling goes on
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
$worker = new CtlWorker(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => $control, 'stat.interval' => '1000']);
$worker->report();
$stream = new StatStream("$dir/stream.sock");

/* 50 clients connected at once, then each sends one valid message */
$clients = [];
for ($i = 0; $i < 50; $i++) {
    $clients[] = stat_test_connect($control);
}
foreach ($clients as $i => $client) {
    ctl_write($client, ctl_message(CTL_INTERVAL, 100 + $i));
}
$state = $worker->await('counters', 'control_applied', '>=', 50);
printf("50 clients: applied %d, invalid %d, interval one of theirs: %s\n", $state['counters']['control_applied'],
    $state['counters']['control_invalid'], $state['settings']['interval'] >= 100 && $state['settings']['interval'] < 150 ? 'yes' : 'no');
foreach ($clients as $client) {
    fclose($client);
}

/* a flood: 10,000 valid messages in one write; applied in order (the last arginfo, i = 9997, is 1) */
$flood = [];
for ($i = 0; $i < 9999; $i++) {
    $flood[] = $i % 2 ? [CTL_ARGINFO, $i % 4 === 1 ? 1 : 0] : [CTL_INTERVAL, 10 + $i];
}
$flood[] = [CTL_INTERVAL, 700];
ctl_send($control, ctl_messages($flood));
$state = $worker->await('counters', 'control_applied', '>=', 10050);
printf("flood: applied %d, invalid %d, interval %d, arginfo %s\n", $state['counters']['control_applied'],
    $state['counters']['control_invalid'], $state['settings']['interval'], json_encode($state['settings']['arginfo']));

/* four floods at once, 2,500 messages each */
$floods = [];
for ($i = 0; $i < 4; $i++) {
    $floods[$i] = stat_test_connect($control);
    stream_set_blocking($floods[$i], false);
}
$pending = array_fill(0, 4, str_repeat(ctl_message(CTL_ARGINFO, 0), 2500));
$deadline = microtime(true) + 30;
while (array_filter($pending) && microtime(true) < $deadline) {
    $read = $except = null;
    $write = array_values(array_intersect_key($floods, array_filter($pending)));
    if (stream_select($read, $write, $except, 1) > 0) {
        foreach ($write as $socket) {
            $i = array_search($socket, $floods, true);
            $n = fwrite($socket, $pending[$i]);
            $pending[$i] = (string) substr($pending[$i], (int) $n);
        }
    }
}
foreach ($floods as $socket) {
    fclose($socket);
}
$state = $worker->await('counters', 'control_applied', '>=', 20050);
printf("four floods at once: applied %d, invalid %d\n", $state['counters']['control_applied'], $state['counters']['control_invalid']);
printf("samples after the floods: %s\n", ctl_sampled_after($stream, $state['elapsed']) ? 'yes' : 'no');
[$code, $final] = $worker->finish();
var_dump($code);
printf("final: applied %d, invalid %d, interval %d\n", $final['counters']['control_applied'], $final['counters']['control_invalid'], $final['settings']['interval']);
var_dump($stream->invalid, $worker->stderr());
?>
--EXPECT--
50 clients: applied 50, invalid 0, interval one of theirs: yes
flood: applied 10050, invalid 0, interval 700, arginfo true
four floods at once: applied 20050, invalid 0
samples after the floods: yes
int(0)
final: applied 20050, invalid 0, interval 700
array(0) {
}
string(0) ""
