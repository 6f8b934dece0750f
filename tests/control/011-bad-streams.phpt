--TEST--
control: partial message then disconnect, random garbage, idle clients: counted exactly, sampling goes on, exit within 5 s
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

/* garbage in which no 16-byte message has a known control code (1 in 2^61 per message anyway) */
function garbage(int $length): string {
    do {
        $bytes = random_bytes($length);
        $known = false;
        foreach (str_split(substr($bytes, 0, $length - $length % 16), 16) as $message) {
            $known = $known || in_array(unpack('q', $message)[1], [CTL_AUTO, CTL_SAMPLERS, CTL_INTERVAL, CTL_ARGINFO, CTL_STACK], true);
        }
    } while ($known);
    return $bytes;
}

/* an idle control client, and a stream client that never reads, both kept until the child exits */
$idle = stat_test_connect($control);
$deaf = stat_test_connect("unix://$dir/stream.sock");

ctl_send($control, substr(ctl_message(CTL_INTERVAL, 500), 0, 10)); /* 1 partial message */
ctl_send($control, '');                                              /* connect and close: nothing */
ctl_send($control, garbage(1000));                                   /* 62 messages + 1 partial */
ctl_send($control, "\x00");                                          /* 1 partial */
/* 62 garbage messages, then a valid one, on one connection left open */
$open = stat_test_connect($control);
ctl_write($open, garbage(992) . ctl_message(CTL_INTERVAL, 300));
$state = $worker->await('settings', 'interval', '==', 300);
printf("valid message after 992 bytes of garbage applied: %s\n", json_encode($state['met']));
$state = $worker->await('counters', 'control_invalid', '>=', 127);
printf("invalid counted: %d (expected 1 + 63 + 1 + 62 = 127)\n", $state['counters']['control_invalid']);
$changed = ctl_changed($state['settings'], $before);
printf("settings changed: %s\n", implode(',', $changed));
printf("samples after the garbage: %s\n", ctl_sampled_after($stream, $state['elapsed']) ? 'yes' : 'no');

[$code, $final, $took] = $worker->finish(STAT_TEST_TIMEOUT, $stream);
var_dump($code);
printf("exited within 5 s with idle clients connected: %s\n", $took < 5.0 ? 'yes' : "no ($took s)");
printf("final: applied %d, invalid %d\n", $final['counters']['control_applied'], $final['counters']['control_invalid']);
/* the server closed both idle connections */
stream_set_blocking($idle, false);
$read = [$idle];
$write = $except = null;
printf("idle control client closed by the child: %s\n", stream_select($read, $write, $except, 5) === 1 && fread($idle, 1) === '' ? 'yes' : 'no');
var_dump($stream->eof, $stream->invalid, $worker->stderr());
?>
--EXPECT--
valid message after 992 bytes of garbage applied: true
invalid counted: 127 (expected 1 + 63 + 1 + 62 = 127)
settings changed: interval
samples after the garbage: yes
int(0)
exited within 5 s with idle clients connected: yes
final: applied 1, invalid 127
idle control client closed by the child: yes
bool(true)
array(0) {
}
string(0) ""
