--TEST--
fleet: a redis-server that stops answering (SIGSTOP) never holds up ship's reading of the stat stream: ship reads every sample a direct reader reads, drops what its buffer cannot hold, counts it, says the stall once (after 2 s) and its end once, and ships again when Redis answers; aggregate says a stall longer than its 10 s per call once, and its end once
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['redis-server'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
statq_binary();
$redis = new FleetRedis();
$busy = <<<'PHP'
<?php
function work(): int { $s = 0; for ($i = 0; $i < 20000; $i++) { $s += $i % 7; } return $s; }
echo "ready\n";
$until = microtime(true) + 60;
while (stat\counters()['clients_connected'] < 2 && microtime(true) < $until) { usleep(1000); }
stat\sampler\activate();
stream_set_blocking(STDIN, false);
while (trim((string) fgets(STDIN)) !== 'bye' && microtime(true) < $until) { work(); }
PHP;
$php = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '500', 'stat.stack' => '8'], $busy);
var_dump($php->waitFor("ready\n"));
$record = new Statq(['record', '-s', "$dir/stream.sock", '-o', "$dir/direct.jsonl"]);
$ship = new Statq(['ship', '-s', "$dir/stream.sock", '--redis', $redis->url(), '--stream', 'stat:samples', '--batch', '100',
    '--buffer', '1', '--plain']);
$stderr = function () use ($ship): string { $ship->running(); return $ship->stderr(); };
printf("shipping: %s\n", stat_test_until(fn() => $redis->cmd(['XLEN', 'stat:samples']) > 2) ? 'yes' : 'no');

$redis->pause();
printf("Redis stalled: ship drops, saying why: %s\n",
    stat_test_until(fn() => str_contains($stderr(), 'ship: dropping samples: Redis is not keeping up, and the 1 MiB of --buffer are full')) ? 'yes' : "no\n" . $stderr());
printf("the stall said: %s\n", stat_test_until(fn() => str_contains($stderr(), 'has not answered for')) ? 'yes' : 'no');
$redis->resume();
printf("its end said: %s\n", stat_test_until(fn() => str_contains($stderr(), 'answers again, after')) ? 'yes' : 'no');
$dropped_entry = fn() => array_filter($redis->entries('stat:samples'), fn($f) => $f !== null && $f['type'] === 'dropped');
printf("Redis answers again: the drops said in the stream: %s\n", stat_test_until(fn() => count($dropped_entry()) > 0) ? 'yes' : 'no');
$php->send("bye\n");
$php->wait(60);
printf("record: exit %d, ship: exit %d\n", $record->wait(60), $ship->wait(60));

[$direct, $lost] = stat_test_decode(file_get_contents("$dir/direct.jsonl"));
preg_match('/ship: (\d+) samples read, (\d+) shipped in (\d+) entries .* (\d+) dropped/', $ship->stderr(), $m);
[, $read, $shipped, , $dropped] = array_map('intval', $m + [0, 0, 0, 0, 0]);
printf("ship read every sample the direct reader read: %s\n", $read === count($direct) ? 'yes' : "no ($read of " . count($direct) . ")\n" . $ship->stderr());
printf("each said once: %d, %d\n", substr_count($ship->stderr(), 'has not answered for'), substr_count($ship->stderr(), 'answers again, after'));
printf("read = shipped + dropped: %s, dropped some: %s\n", $read === $shipped + $dropped ? 'yes' : 'no', $dropped > 0 ? 'yes' : 'no');
$entries = $redis->entries('stat:samples');

/* aggregate, while Redis answers nothing for longer than its 10 s per call: said once, and its end once */
$a = new Statq(['aggregate', '--redis', $redis->url(), '--stream', 'stat:samples', '--group', 'g', '--dir', "$dir/flames", '--flush', '1']);
$aerr = function () use ($a): string { $a->running(); return $a->stderr(); };
stat_test_until(fn() => $redis->pending('stat:samples', 'g') === 0 && file_exists("$dir/flames/daily"));
$redis->pause();
printf("aggregate: the stall said: %s\n", stat_test_until(fn() => str_contains($aerr(), 'no answer in time')) ? 'yes' : "no\n" . $aerr());
$redis->resume();
printf("aggregate: its end said: %s\n", stat_test_until(fn() => str_contains($aerr(), 'connected to ' . $redis->url() . ' again')) ? 'yes' : "no\n" . $aerr());
$a->signal(SIGTERM);
printf("aggregate: exit %d, each said once: %d, %d\n", $a->wait(), substr_count($a->stderr(), 'no answer in time'),
    substr_count($a->stderr(), 'again'));
$in_stream = array_sum(array_map(fn($f) => (int) $f['n'], array_filter($entries, fn($f) => $f['type'] === 'samples')));
$said = array_sum(array_map(fn($f) => (int) $f['n'], array_filter($entries, fn($f) => $f['type'] === 'dropped')));
printf("the stream holds what was shipped: %s, and the drops: %s\n", $in_stream === $shipped ? 'yes' : "no ($in_stream of $shipped)",
    $said === $dropped ? 'yes' : "no ($said of $dropped)");
?>
--EXPECT--
bool(true)
shipping: yes
Redis stalled: ship drops, saying why: yes
the stall said: yes
its end said: yes
Redis answers again: the drops said in the stream: yes
record: exit 0, ship: exit 0
ship read every sample the direct reader read: yes
each said once: 1, 1
read = shipped + dropped: yes, dropped some: yes
aggregate: the stall said: yes
aggregate: its end said: yes
aggregate: exit 0, each said once: 1, 1
the stream holds what was shipped: yes, and the drops: yes
