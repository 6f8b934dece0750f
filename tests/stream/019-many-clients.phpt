--TEST--
stream: 40 clients at once all receive every sample and EOF at exit
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '1000'], stat_stream_cpu_script(0.3, true));
var_dump($child->waitFor("ready\n"));
$streams = [];
for ($i = 0; $i < 40; $i++) {
    $streams[] = new StatStream("$dir/stream.sock");
}
$child->send("go\n");
var_dump(stat_stream_read_while($child, $streams, "end\n"));
[$complete, $code, $eof] = stat_stream_finish($child, $streams);
var_dump($code, $complete, $eof);
$counters = stat_stream_counters($child);
printf("all connected: %s\n", $counters['clients_total'] === 40 && $counters['clients_connected'] === 40 ? 'yes' : "no ({$counters['clients_total']}, {$counters['clients_connected']})");
$short = $invalid = $lost = 0;
$reference = null;
$differ = 0;
foreach ($streams as $stream) {
    $short += count($stream->samples) !== $counters['samples_written'];
    $invalid += count($stream->invalid) + (strlen($stream->rest()) > 0);
    $lost += count($stream->lost);
    $keys = array_map('stat_stream_key', $stream->samples);
    sort($keys);
    $reference ??= $keys;
    $differ += $keys !== $reference;
}
printf("clients missing samples: %d, with invalid lines: %d, with lost lines: %d, with other samples than the first: %d\n", $short, $invalid, $lost, $differ);
?>
--EXPECT--
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
all connected: yes
clients missing samples: 0, with invalid lines: 0, with lost lines: 0, with other samples than the first: 0
