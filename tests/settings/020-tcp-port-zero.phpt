--TEST--
settings: port 0 (tcp://127.0.0.1:0, tcp://[::1]:0) binds a port the kernel chooses, without a warning; stat\settings() and the status line name the port bound, and both sockets work there
--SKIPIF--
<?php if (!@stream_socket_server("tcp://[::1]:0")) die("skip IPv6 loopback unavailable"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../control/control.inc';

$worker = new CtlWorker(['stat.stream' => 'tcp://127.0.0.1:0', 'stat.control' => 'tcp://[::1]:0', 'stat.interval' => '500']);
$settings = $worker->report()['settings'];
printf("stream: %s\n", preg_replace('/:\d+$/', ':PORT', $settings['stream']));
printf("control: %s\n", preg_replace('/:\d+$/', ':PORT', $settings['control']));
$streamPort = (int) substr(strrchr($settings['stream'], ':'), 1);
$controlPort = (int) substr(strrchr($settings['control'], ':'), 1);
printf("ports chosen (not 0): %s\n", $streamPort > 0 && $controlPort > 0 ? 'yes' : 'no');

$stream = new StatStream($settings['stream']);
$stream->readUntil(fn(StatStream $s) => count($s->samples) >= 3);
printf("status line names the same addresses: %s\n", ($stream->status['settings']['stream'] ?? null) === $settings['stream']
    && ($stream->status['settings']['control'] ?? null) === $settings['control'] ? 'yes' : json_encode($stream->status));
printf("samples on the chosen port: %s\n", count($stream->samples) >= 3 ? 'yes' : count($stream->samples));

$control = stat_test_connect($settings['control']);
ctl_write($control, ctl_message(CTL_INTERVAL, 250));
stream_set_timeout($control, (int) STAT_TEST_TIMEOUT);
$reply = fread($control, 16);
printf("control on the chosen port: %s\n", strlen($reply) === 16 && unpack('q2', $reply) === [1 => 0, 2 => 250] ? 'applied 250' : bin2hex($reply));
fclose($control);
[$code] = $worker->finish(STAT_TEST_TIMEOUT, $stream);
var_dump($code, $worker->stderr(), $stream->invalid);
?>
--EXPECT--
stream: tcp://127.0.0.1:PORT
control: tcp://[::1]:PORT
ports chosen (not 0): yes
status line names the same addresses: yes
samples on the chosen port: yes
control on the chosen port: applied 250
int(0)
string(0) ""
array(0) {
}
