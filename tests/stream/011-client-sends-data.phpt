--TEST--
stream: a client that sends data (and then shuts down its writing side) is ignored and still gets every sample
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "$dir/stream.sock", 'stat.auto' => '0'], stat_stream_cpu_script(0.5, true));
var_dump($child->waitFor("ready\n"));
$talker = new StatStream("$dir/stream.sock");
$quiet = new StatStream("$dir/stream.sock");
$child->send("go\n");

/* junk, a control-like message and a JSON line, 256 KiB in all, written while reading */
$junk = pack('q2', 1 << 3, 10) . "{\"type\":\"lost\"}\n" . "\x00\xff garbage\r\n";
$junk = substr(str_repeat($junk, intdiv(262144, strlen($junk)) + 1), 0, 262144);
$sent = 0;
$deadline = microtime(true) + 20;
while ($sent < strlen($junk) && microtime(true) < $deadline) {
    $n = @fwrite($talker->socket, substr($junk, $sent, 65536));
    $sent += $n ?: 0;
    $talker->readUntil(fn() => false, 0.01);
    $quiet->readUntil(fn() => false, 0.01);
}
printf("all junk accepted: %s\n", $sent === strlen($junk) ? 'yes' : "no ($sent bytes)");
stream_socket_shutdown($talker->socket, STREAM_SHUT_WR);

var_dump(stat_stream_read_while($child, [$talker, $quiet], "end\n"));
/* every sample written, then the exit and EOF */
[$complete, $code, $eof] = stat_stream_finish($child, [$talker, $quiet]);
var_dump($code);
var_dump($complete && $eof);
$counters = stat_stream_counters($child);
var_dump($child->stderr(), $talker->invalid, $talker->lost, $talker->rest());
printf("talker got every sample: %s\n", count($talker->samples) === $counters['samples_written'] ? 'yes' : 'no (' . count($talker->samples) . " of {$counters['samples_written']})");
$a = array_map('stat_stream_key', $talker->samples);
$b = array_map('stat_stream_key', $quiet->samples);
sort($a);
sort($b);
printf("same samples as a quiet client: %s\n", $a === $b ? 'yes' : 'no');
printf("nothing taken as a control message: %s\n", $counters['control_applied'] === 0 && $counters['control_invalid'] === 0 ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
all junk accepted: yes
bool(true)
int(0)
bool(true)
string(0) ""
array(0) {
}
array(0) {
}
string(0) ""
talker got every sample: yes
same samples as a quiet client: yes
nothing taken as a control message: yes
