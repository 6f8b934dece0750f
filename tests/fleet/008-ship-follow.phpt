--TEST--
fleet: ship --follow outlives PHP: the stream ends, a new PHP comes on the same socket, ship connects again and ships both; SIGTERM ends it cleanly, having shipped everything it read
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
echo "pid ", stat\pid(), "\n";
stream_set_blocking(STDIN, false);
$deadline = microtime(true) + 30;
while (trim((string) fgets(STDIN)) !== 'bye' && microtime(true) < $deadline) {
    md5(str_repeat('x', 20000));
}
PHP;
$ini = ['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '1000', 'stat.stack' => '8'];
$pids = function () use ($redis): array {
    $pids = [];
    foreach ($redis->entries('stat:samples') as $fields) {
        if ($fields['type'] === 'samples') {
            foreach (fleet_entry_lines($fields) as $line) {
                $pids[json_decode($line, true)['request']['pid']] = true;
            }
        }
    }
    return array_keys($pids);
};

$first = new StatChild($ini, $busy);
$first->waitFor("\n");
$pid1 = (int) substr($first->stdout(), 4);
$ship = new Statq(['ship', '--follow', '-s', "$dir/stream.sock", '--redis', $redis->url(), '--stream', 'stat:samples', '--batch', '50']);
printf("first PHP shipped: %s\n", stat_test_until(fn() => in_array($pid1, $pids())) ? 'yes' : 'no');
$first->send("bye\n");
$first->wait();
$second = new StatChild($ini, $busy);
$second->waitFor("\n");
$pid2 = (int) substr($second->stdout(), 4);
printf("second PHP shipped: %s\n", stat_test_until(fn() => in_array($pid2, $pids())) ? 'yes' : 'no');
printf("ship still runs: %s\n", $ship->running() ? 'yes' : 'no');
$ship->signal(SIGTERM);
printf("SIGTERM: exit %s\n", var_export($ship->wait(), true));
$second->send("bye\n");
$second->wait();
preg_match('/ship: (\d+) samples read, (\d+) shipped in (\d+) entries .* (\d+) dropped/', $ship->stderr(), $m);
$in_stream = array_sum(array_map(fn($f) => (int) $f['n'], $redis->entries('stat:samples')));
printf("read = shipped = in the stream: %s, dropped: %s\n", isset($m[1]) && $m[1] === $m[2] && (int) $m[2] === $in_stream ? 'yes' : "no\n" . $ship->stderr(), $m[4] ?? '?');
printf("said the stream ended and came back: %s\n", str_contains($ship->stderr(), 'ship: the stream from') && str_contains($ship->stderr(), 'ship: reconnected to') ? 'yes' : "no\n" . $ship->stderr());
?>
--EXPECT--
first PHP shipped: yes
second PHP shipped: yes
ship still runs: yes
SIGTERM: exit 0
read = shipped = in the stream: yes, dropped: 0
said the stream ended and came back: yes
