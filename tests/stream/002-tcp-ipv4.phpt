--TEST--
stream: TCP on 127.0.0.1: every line parses, the child's samples arrive, EOF at exit
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$port = stat_test_port('127.0.0.1');
$child = new StatChild(['stat.stream' => "tcp://127.0.0.1:$port"], stat_stream_cpu_script(0.4));
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("tcp://127.0.0.1:$port");
$child->send("go\n");
var_dump(stat_stream_read_while($child, [$stream], "end\n"));
/* every sample written, then the exit and EOF */
[$complete, $code, $eof] = stat_stream_finish($child, [$stream]);
var_dump($code);
var_dump($complete && $eof);
var_dump($stream->invalid, $stream->rest(), $child->stderr());

$pids = array_unique(array_map(fn($s) => $s['request']['pid'], $stream->samples));
printf("samples only from the child: %s\n", $pids === [$child->pid()] ? 'yes' : 'no (' . implode(',', $pids) . ')');
$types = array_unique(array_column($stream->samples, 'type'));
printf("known types: %s\n", !array_diff($types, ['user', 'internal', 'memory']) ? 'yes' : 'no (' . implode(',', $types) . ')');
$seen = stat_test_histogram($stream->samples);
printf("Worker::fib sampled: %s\n", isset($seen['Worker::fib']) ? 'yes' : 'no');
printf("enough samples: %s\n", count($stream->samples) >= 200 ? 'yes' : 'no (' . count($stream->samples) . ')');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
bool(true)
array(0) {
}
string(0) ""
string(0) ""
samples only from the child: yes
known types: yes
Worker::fib sampled: yes
enough samples: yes
