--TEST--
client: ctl changes a live stat process (interval, arginfo, auto, stack, clock) over the control socket and prints stat's reply to each; a change stat refuses (above the startup maximum) fails with the reason; a stat that never answers is a failure (exit 1) saying each change may not have taken effect; unknown names and bad values are clear errors and send nothing
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$dir = stat_test_dir();
statq_binary();
$control = "unix://$dir/control.sock";

$child = new StatChild(['stat.control' => $control, 'stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '100', 'stat.stack' => '16'], <<<'PHP'
<?php
function settled(callable $done): void {
    $deadline = microtime(true) + 20;
    while (!$done(stat\settings()) && microtime(true) < $deadline) {
        usleep(1000);
    }
}
echo "ready interval ", stat\settings()['interval'], "\n";
settled(fn($s) => $s['interval'] !== 100);
echo "interval ", stat\settings()['interval'], "\n";
settled(fn($s) => $s['arginfo'] && !$s['auto']);
echo "arginfo ", json_encode(stat\settings()['arginfo']), " auto ", json_encode(stat\settings()['auto']), "\n";
settled(fn($s) => $s['stack'] !== 16);
echo "stack ", stat\settings()['stack'], "\n";
settled(fn($s) => $s['clock'] === 'cpu');
echo "clock ", stat\settings()['clock'], "\n";
fgets(STDIN);
$c = stat\counters();
echo "applied {$c['control_applied']} invalid {$c['control_invalid']}\n";
PHP);
var_dump($child->waitFor("ready interval 100\n"));

/* errors first: each is a usage error (exit 2), names the problem, and sends nothing */
$bad = [
    ['interval', '5'], ['interval', '10000001'], ['interval', 'fast'], ['stack', '257'], ['samplers', '-1'],
    ['auto', 'maybe'], ['clock', 'fast'], ['frobnicate', '1'], ['interval'], [], ['interval', '50', 'arginfo'],
];
foreach ($bad as $args) {
    [$code, $out, $err] = statq_run(array_merge(['ctl', '-c', $control], $args));
    printf("ctl %s: exit %d: %s", implode(' ', $args), $code, $err);
}
[$code, $out, $err] = statq_run(['ctl', '-c', "unix://$dir/none.sock", 'interval', '50']);
printf("no socket: exit %d, names it: %s\n", $code, strpos($err, "cannot connect to unix://$dir/none.sock") !== false ? 'yes' : 'no');

[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'interval', '50']);
printf("ctl interval 50: exit %d: %s", $code, str_replace($control, 'CONTROL', $out));
var_dump($child->waitFor("interval 50\n"));
[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'arginfo', 'on', 'auto', 'off']);
printf("ctl arginfo on auto off: exit %d: %s", $code, str_replace($control, 'CONTROL', $out));
var_dump($child->waitFor("arginfo true auto false\n"));
/* above stat.stack (16) as set at startup: refused, with the reason and what to do; nothing changes */
[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'stack', '32']);
printf("ctl stack 32: exit %d: %s%s", $code, $out, str_replace($control, 'CONTROL', $err));
/* one refused among applied ones: the others are applied, the exit status is 1 */
[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'stack', '8', 'stack', '17']);
printf("ctl stack 8 stack 17: exit %d: %s%s", $code, $out, str_replace($control, 'CONTROL', $err));
var_dump($child->waitFor("stack 8\n"));
[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'clock', 'cpu']);
printf("ctl clock cpu: exit %d: %s", $code, $out);
var_dump($child->waitFor("clock cpu\n"));

/* the stream socket given for the control socket: said so */
$stream = "unix://$dir/stream.sock";
[$code, $out, $err] = statq_run(['ctl', '-c', $stream, 'interval', '70']);
printf("ctl -c STREAM: exit %d: %s", $code, str_replace($stream, 'STREAM', $err));
$child->send("counters\n");
var_dump($child->wait());
echo substr($child->stdout(), strrpos(rtrim($child->stdout()), "\n") + 1);

/* a control socket that takes messages and never answers (a stalled listener, a stat older than the replies): exit 1, within the deadline */
$mute = new StatChild([], <<<'PHP'
<?php
$server = stream_socket_server('unix://' . $argv[1]);
echo "listening\n";
$client = stream_socket_accept($server, 20);
$got = '';
while (strlen($got) < 32 && ($data = fread($client, 32 - strlen($got))) !== false && $data !== '') {
    $got .= $data;
}
echo json_encode(array_values(unpack('q4', $got))), "\n";
fgets(STDIN);
PHP, [], ["$dir/mute.sock"]);
var_dump($mute->waitFor("listening\n"));
$start = microtime(true);
[$code, $out, $err] = statq_run(['ctl', '-c', "$dir/mute.sock", 'interval', '300', 'arginfo', 'off']);
printf("no reply: exit %d, within the deadline: %s\n%s%s", $code, microtime(true) - $start < 10 ? 'yes' : 'no',
    str_replace($dir, 'DIR', $out), str_replace($dir, 'DIR', $err));
var_dump($mute->waitFor("[8,300,16,0]\n"));
$mute->send("bye\n");
var_dump($mute->wait());
?>
--EXPECT--
bool(true)
ctl interval 5: exit 2: statq: ctl: interval must be a whole number from 10 to 10000000 microseconds, '5' given
ctl interval 10000001: exit 2: statq: ctl: interval must be a whole number from 10 to 10000000 microseconds, '10000001' given
ctl interval fast: exit 2: statq: ctl: interval must be a whole number from 10 to 10000000 microseconds, 'fast' given
ctl stack 257: exit 2: statq: ctl: stack must be a whole number from 0 to 256 frames, '257' given
ctl samplers -1: exit 2: statq: ctl: samplers must be a whole number from 0 to 1000000 samplers (0: unlimited), '-1' given
ctl auto maybe: exit 2: statq: ctl: auto must be on or off, 'maybe' given
ctl clock fast: exit 2: statq: ctl: clock must be cpu or wall, 'fast' given
ctl frobnicate 1: exit 2: statq: ctl: unknown setting 'frobnicate' (known: auto, samplers, interval, arginfo, stack, clock, query, pool_rate)
ctl interval: exit 2: statq: ctl: interval needs a value (a number)
ctl : exit 2: statq: ctl: nothing to send: give NAME VALUE, e.g. statq ctl interval 50 (see statq ctl --help)
ctl interval 50 arginfo: exit 2: statq: ctl: arginfo needs a value (on or off)
no socket: exit 1, names it: yes
ctl interval 50: exit 0: applied interval 50
bool(true)
ctl arginfo on auto off: exit 0: applied arginfo on
applied auto off
bool(true)
ctl stack 32: exit 1: statq: ctl: CONTROL refused stack 32: above the startup maximum 16: raise stat.stack in php.ini and restart PHP
ctl stack 8 stack 17: exit 1: applied stack 8
statq: ctl: CONTROL refused stack 17: above the startup maximum 16: raise stat.stack in php.ini and restart PHP
bool(true)
ctl clock cpu: exit 0: applied clock cpu
bool(true)
ctl -c STREAM: exit 1: statq: ctl: STREAM answered with a JSON line: it is stat's stream socket; give the control socket (stat.control)
int(0)
applied 5 invalid 2
bool(true)
no reply: exit 1, within the deadline: yes
statq: ctl: unix://DIR/mute.sock did not answer interval 300: it may or may not have taken effect
statq: ctl: unix://DIR/mute.sock did not answer arginfo off: it may or may not have taken effect
statq: ctl: unix://DIR/mute.sock sent no reply within 2 s (its listener stalled, or a stat older than the replies); check the settings with statq status
bool(true)
int(0)
