--TEST--
control: every whole message is answered in order with {int64 status; int64 value}: applied (the value now in effect), unknown, out of range (the value unchanged), above the startup maximum (that maximum); a client that never reads its replies blocks nothing
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
$worker = new CtlWorker(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => $control,
    'stat.interval' => '1000', 'stat.stack' => '16']);
$worker->report();

$messages = [[CTL_INTERVAL, 250], [1 << 9, 1], [CTL_INTERVAL, 5], [CTL_STACK, 8], [CTL_STACK, 64], [CTL_STACK, 257],
    [CTL_AUTO, 0], [CTL_AUTO, 2], [CTL_SAMPLERS, 1000000], [CTL_SAMPLERS, 1000001], [CTL_ARGINFO, 1], [PHP_INT_MIN, PHP_INT_MAX]];
$socket = stat_test_connect($control);
/* one write, the last message split across two */
$bytes = ctl_messages($messages);
fwrite($socket, substr($bytes, 0, -5));
fflush($socket);
fwrite($socket, substr($bytes, -5));
stream_set_timeout($socket, 10);
$replies = '';
while (strlen($replies) < 16 * count($messages) && !feof($socket)) {
    $replies .= fread($socket, 16 * count($messages) - strlen($replies));
}
$names = [0 => 'applied', 1 => 'unknown', 2 => 'out of range', 3 => 'above the startup maximum'];
foreach ($messages as $i => [$code, $param]) {
    [, $status, $value] = unpack('q2', substr($replies, 16 * $i, 16)) + [1 => null, 2 => null];
    printf("%d %d -> %s %d\n", $code, $param, $names[$status] ?? "status $status", $value);
}
fclose($socket);

$state = $worker->await('settings', 'arginfo', '==', true);
printf("live: interval %d, stack %d, auto %s, samplers %d\n", $state['settings']['interval'], $state['settings']['stack'],
    var_export($state['settings']['auto'], true), $state['settings']['samplers']);

/* 20,000 messages from a client that never reads a reply: the listener goes on serving others */
$applied = $state['counters']['control_applied'];
$mute = stat_test_connect($control);
stream_set_blocking($mute, true);
$flood = str_repeat(ctl_message(CTL_INTERVAL, 300), 20000);
printf("flood written: %s\n", ctl_write($mute, $flood) ? 'yes' : 'no');
$other = stat_test_connect($control);
fwrite($other, ctl_message(CTL_INTERVAL, 400));
stream_set_timeout($other, 10);
$reply = fread($other, 16);
printf("another client answered meanwhile: %s\n", strlen($reply) === 16 && unpack('q2', $reply) === [1 => 0, 2 => 400] ? 'yes' : bin2hex($reply));
$state = $worker->await('counters', 'control_applied', '>=', $applied + 20001);
printf("all 20,001 applied: %s\n", json_encode($state['met']));
/* what the mute client now reads, and the replies counted as dropped, are the 20,000 */
stream_set_blocking($mute, false);
$got = 0;
$deadline = microtime(true) + 10;
do {
    while (($chunk = fread($mute, 1 << 16)) !== false && $chunk !== '') {
        $got += strlen($chunk);
    }
    $dropped = $worker->report()['counters']['control_replies_dropped'];
} while (intdiv($got, 16) + $dropped !== 20000 && microtime(true) < $deadline);
printf("replies read by the mute client: %s; delivered + dropped: %d\n", $got > 0 && $got < 16 * 20000 && $got % 16 === 0 ? 'some, not all' : $got, intdiv($got, 16) + $dropped);
fclose($mute);
fclose($other);
$worker->finish();
?>
--EXPECT--
8 250 -> applied 250
512 1 -> unknown 0
8 5 -> out of range 250
32 8 -> applied 8
32 64 -> above the startup maximum 16
32 257 -> out of range 8
2 0 -> applied 0
2 2 -> out of range 0
4 1000000 -> applied 1000000
4 1000001 -> out of range 1000000
16 1 -> applied 1
-9223372036854775808 9223372036854775807 -> unknown 0
live: interval 250, stack 8, auto false, samplers 1000000
flood written: yes
another client answered meanwhile: yes
all 20,001 applied: true
replies read by the mute client: some, not all; delivered + dropped: 20000
