--TEST--
control: a message written a byte at a time applies once whole; messages across write boundaries and two in one write all apply
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
$worker = new CtlWorker(['stat.control' => $control, 'stat.interval' => '1000']);
$worker->report();
$show = fn(array $state) => sprintf("interval %d, arginfo %s, applied %d, invalid %d", $state['settings']['interval'],
    json_encode($state['settings']['arginfo']), $state['counters']['control_applied'], $state['counters']['control_invalid']);

/* 1. one byte per write; before the last byte the child reports: nothing applied yet */
$socket = stat_test_connect($control);
$bytes = ctl_message(CTL_INTERVAL, 250);
for ($i = 0; $i < 15; $i++) {
    ctl_write($socket, $bytes[$i]);
}
echo "15 of 16 bytes: ", $show($worker->report()), "\n";
ctl_write($socket, $bytes[15]);
$state = $worker->await('settings', 'interval', '==', 250);
echo "16 of 16 bytes: ", $show($state), "\n";

/* 2. three messages in writes of 5 bytes, on the same connection, with a pause at 7 + 9 */
$bytes = ctl_messages([[CTL_INTERVAL, 300], [CTL_ARGINFO, 1], [CTL_INTERVAL, 400]]);
ctl_write($socket, substr($bytes, 0, 7));
echo "7 bytes: ", $show($worker->report()), "\n";
foreach (str_split(substr($bytes, 7), 5) as $chunk) {
    ctl_write($socket, $chunk);
}
$state = $worker->await('settings', 'interval', '==', 400);
echo "48 bytes in 5-byte writes: ", $show($state), "\n";
fclose($socket);

/* 3. two messages in one write, on a new connection */
ctl_send($control, ctl_messages([[CTL_INTERVAL, 500], [CTL_ARGINFO, 0]]));
$state = $worker->await('counters', 'control_applied', '>=', 6);
echo "two in one write: ", $show($state), "\n";

/* 4. halves of one message on two connections do not make a message: two partial messages */
ctl_send($control, substr(ctl_message(CTL_INTERVAL, 600), 0, 8));
ctl_send($control, substr(ctl_message(CTL_INTERVAL, 600), 8));
$state = $worker->await('counters', 'control_invalid', '>=', 2);
echo "halves on two connections: ", $show($state), "\n";

[$code, $final] = $worker->finish();
var_dump($code);
echo "final: ", $show($final), "\n";
var_dump($worker->stderr());
?>
--EXPECT--
15 of 16 bytes: interval 1000, arginfo false, applied 0, invalid 0
16 of 16 bytes: interval 250, arginfo false, applied 1, invalid 0
7 bytes: interval 250, arginfo false, applied 1, invalid 0
48 bytes in 5-byte writes: interval 400, arginfo true, applied 4, invalid 0
two in one write: interval 500, arginfo false, applied 6, invalid 0
halves on two connections: interval 500, arginfo false, applied 6, invalid 2
int(0)
final: interval 500, arginfo false, applied 6, invalid 2
string(0) ""
