--TEST--
fleet: redis-server killed and restarted while ship forwards a live stream: ship goes on reading, drops what does not fit its buffer, counts it, reconnects, says it in the stream; read = shipped + dropped
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
while (stat\counters()['clients_connected'] < 1 && microtime(true) < $until) { usleep(1000); }
stat\sampler\activate();
stream_set_blocking(STDIN, false);
while (trim((string) fgets(STDIN)) !== 'bye' && microtime(true) < $until) { work(); }
PHP;
$php = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '200', 'stat.stack' => '8'], $busy);
var_dump($php->waitFor("ready\n"));
/* a small buffer (1 MiB) and plain entries: a Redis away for a moment is more than it holds */
$ship = new Statq(['ship', '-s', "$dir/stream.sock", '--redis', $redis->url(), '--stream', 'stat:samples', '--batch', '100',
    '--buffer', '1', '--plain']);
$stderr = function () use ($ship): string { $ship->running(); return str_replace(stat_test_dir(), 'DIR', $ship->stderr()); };
printf("shipping: %s\n", stat_test_until(fn() => $redis->cmd(['XLEN', 'stat:samples']) > 2) ? 'yes' : 'no');

$redis->kill();
printf("ship says Redis is away: %s\n", stat_test_until(fn() => preg_match('/ship: (lost the connection to|cannot connect to) unix:\/\/DIR\/redis.sock/', $stderr())) ? 'yes' : 'no');
printf("and drops, saying why: %s\n", stat_test_until(fn() => str_contains($stderr(), 'ship: dropping samples: Redis is not reachable, and the 1 MiB of --buffer are full')) ? 'yes' : "no\n" . $stderr());
printf("ship still runs: %s\n", $ship->running() ? 'yes' : 'no');

$redis->start();
$dropped_entry = fn() => array_filter($redis->entries('stat:samples'), fn($f) => $f !== null && $f['type'] === 'dropped');
printf("reconnected: %s, the drops said in the stream: %s\n",
    stat_test_until(fn() => str_contains($stderr(), 'ship: connected to unix://DIR/redis.sock again')) ? 'yes' : 'no',
    stat_test_until(fn() => count($dropped_entry()) > 0) ? 'yes' : 'no');
$php->send("bye\n");
var_dump($php->wait(60));
printf("ship: exit %d\n", $ship->wait(60));
preg_match('/ship: (\d+) samples read, (\d+) shipped in (\d+) entries .* (\d+) dropped/', $ship->stderr(), $m);
[, $read, $shipped, , $dropped] = array_map('intval', $m + [0, 0, 0, 0, 0]);
printf("read = shipped + dropped: %s; dropped some: %s\n", $read === $shipped + $dropped ? 'yes' : "no\n" . $ship->stderr(), $dropped > 0 ? 'yes' : 'no');

$entries = $redis->entries('stat:samples');
$said = array_sum(array_map(fn($f) => (int) $f['n'], array_filter($entries, fn($f) => $f['type'] === 'dropped')));
$last = array_values(array_filter($entries, fn($f) => $f['type'] === 'dropped'));
$last = end($last);
printf("\"dropped\" entries add up to the drops: %s, the last one's total: %s, labelled: %s\n", $said === $dropped ? 'yes' : "no ($said of $dropped)",
    (int) $last['total'] === $dropped ? 'yes' : 'no', $last['v'] === '2' && $last['host'] !== '' && $last['pool'] !== '' ? 'yes' : 'no');
$after = array_sum(array_map(fn($f) => (int) $f['n'], array_filter($entries, fn($f) => $f['type'] === 'samples')));
printf("samples shipped to the new Redis: %s, no more than shipped: %s\n", $after > 0 ? 'yes' : 'no', $after <= $shipped ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
shipping: yes
ship says Redis is away: yes
and drops, saying why: yes
ship still runs: yes
reconnected: yes, the drops said in the stream: yes
int(0)
ship: exit 0
read = shipped + dropped: yes; dropped some: yes
"dropped" entries add up to the drops: yes, the last one's total: yes, labelled: yes
samples shipped to the new Redis: yes, no more than shipped: yes
