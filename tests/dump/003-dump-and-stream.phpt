--TEST--
dump: with a stream client connected, the client and the dump both get every sample (the dump takes none away)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/dump.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.dump' => '3', 'stat.interval' => '100', 'stat.stream' => "unix://$dir/stream.sock"],
    STAT_DUMP_SCRIPT, [3 => ['file', "$dir/dump.jsonl", 'w']]);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll());
var_dump($child->wait(), $child->stderr());
var_dump($stream->invalid, $stream->lost, $stream->rest());

$dumped = stat_dump_check(file_get_contents("$dir/dump.jsonl"), $child->pid());
$key = fn(array $s) => $s['request']['pid'] . '@' . json_encode($s['elapsed']);
$fromDump = array_unique(array_map($key, $dumped));
$fromStream = array_unique(array_map($key, $stream->samples));
printf("stream samples: %s\n", count($stream->samples) >= 100 ? 'enough' : count($stream->samples));
printf("same count: %s\n", count($dumped) === count($stream->samples) ? 'yes' : count($dumped) . ' dumped, ' . count($stream->samples) . ' streamed');
printf("only in the dump: %d\n", count(array_diff($fromDump, $fromStream)));
printf("only in the stream: %d\n", count(array_diff($fromStream, $fromDump)));
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
array(0) {
}
array(0) {
}
string(0) ""
ends with a newline: yes
invalid lines: 0
lost lines: 0
enough samples: yes
dump_work_hash sampled: yes
dump_work_sum sampled: yes
pid is the child's: yes
types known: yes
stream samples: enough
same count: yes
only in the dump: 0
only in the stream: 0
