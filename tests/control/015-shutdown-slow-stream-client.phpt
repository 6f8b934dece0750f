--TEST--
control: at exit a stream client that has not read holds PHP up for about a second at most, and gets only whole lines
--INI--
memory_limit=1024M
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$worker = new CtlWorker(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => "unix://$dir/control.sock", 'stat.interval' => '10']);
/* a full ring (10000 samples, some 3 MB of JSON) before the client connects */
$state = $worker->await('counters', 'samples_written', '>=', 12000);
printf("ring full: %s\n", json_encode($state['met']));
/* connected, but reads nothing until the child has exited: far more is waiting than the socket holds */
$stream = new StatStream("$dir/stream.sock");
$worker->report();
[$code, $final, $took] = $worker->finish();
var_dump($code);
printf("exit held for about a second at most: %s\n", $took < 3.0 ? 'yes' : "no ($took s)");
var_dump($stream->readAll(10.0));
printf("lines read: %s\n", $stream->lines > 100 ? 'yes' : "no ({$stream->lines})");
var_dump($stream->invalid);
printf("broken last line: %s\n", $stream->rest() === '' ? 'none' : json_encode(substr($stream->rest(), 0, 60)) . '...');
var_dump($worker->stderr());
?>
--EXPECT--
ring full: true
int(0)
exit held for about a second at most: yes
bool(true)
lines read: yes
array(0) {
}
broken last line: none
string(0) ""
