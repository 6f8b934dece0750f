--TEST--
fleet: weights through ship and aggregate: a stream (a real unix socket) of 100 samples of a with weight 3 and 300 of b without, shipped to a real redis-server and aggregated, is 300 and 300 in every folded file, its flame graph, NAME.meta and index.html, and the last word says both counts; lines a newer stat or another shipper wrote (the weight after the frames, weights that are not stat's) are counted as every statq reader counts them
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
$file = '/srv/app/app.php';
/* a minute ago, and never across midnight (UTC): the day's files hold them all */
$now = time() - 60;
$now -= $now % 86400 > 86390 ? 60 : 0;
/* a sample as stat writes it (its head, then its frames): $weight null writes none */
$line = function (int $pid, float $elapsed, string $function, int $at, ?int $weight) use ($file, $now): string {
    $sample = ['type' => 'user', 'request' => ['pid' => $pid, 'elapsed' => 0.5, 'path' => $file], 'elapsed' => $elapsed,
        'time' => $now + $elapsed / 100, 'clock' => 'wall'] + ($weight === null ? [] : ['weight' => $weight])
        + ['memory' => ['used' => 400000, 'peak' => 500000], 'location' => ['file' => $file, 'line' => $at],
            'symbol' => ['function' => $function],
            'stack' => [['function' => $function, 'file' => $file, 'line' => $at], ['file' => $file, 'line' => 20]]];
    return json_encode($sample, JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION);
};
/* two processes on a 1 ms interval: a late tick of a (weight 3) then three b, 50 times each: half the time each */
$lines = [];
foreach ([100, 200] as $pid) {
    $t = 1.0;
    for ($round = 0; $round < 50; $round++) {
        $t += 0.003;
        $lines[] = $line($pid, round($t, 6), 'a', 5, 3);
        for ($k = 0; $k < 3; $k++) {
            $t += 0.001;
            $lines[] = $line($pid, round($t, 6), 'b', 10, null);
        }
    }
}
/* and two lines whose weight is not stat's: ship counts them malformed and forwards neither */
$lines[] = str_replace('"clock":"wall"', '"clock":"wall","weight":0', $line(300, 5.0, 'c', 15, null));
$lines[] = str_replace('"clock":"wall"', '"clock":"wall","weight":2.5', $line(300, 5.0, 'c', 15, null));

/* ship reads them from a stream socket served here, after stat's status line */
$status = json_encode(['type' => 'status', 'time' => $now - 1.5, 'elapsed' => 0.3, 'version' => '1.0.0',
    'settings' => ['interval' => 1000, 'clock' => 'wall'], 'counters' => ['samples_written' => 402, 'samples_failed' => 0]]);
$server = stream_socket_server("unix://$dir/stream.sock", $errno, $errstr);
$ship = new Statq(['ship', '-s', "$dir/stream.sock", '--redis', $redis->url(), '--stream', 'stat:samples', '--batch', '150']);
$client = stream_socket_accept($server, STAT_TEST_TIMEOUT);
fwrite($client, "$status\n" . implode("\n", $lines) . "\n");
fclose($client);
fclose($server);
printf("ship: exit %d, %s\n", $ship->wait(), preg_match('/ship: 400 samples read, 400 shipped in 3 entries /', $ship->stderr())
    && preg_match('/: skipped 2 malformed lines in /', $ship->stderr()) ? '400 samples read and shipped in 3 entries, 2 malformed lines skipped' : $ship->stderr());
$forwarded = [];
foreach ($redis->entries('stat:samples') as $fields) {
    array_push($forwarded, ...fleet_entry_lines($fields));
}
printf("the lines as they came, weight and all: %s; entries' n: %s\n", $forwarded === array_slice($lines, 0, 400) ? 'yes' : 'no',
    implode(' ', array_map(fn($f) => $f['n'], $redis->entries('stat:samples'))));

/* an entry written by hand: a weight after the frames (a line not in stat's order), and weights that are not stat's */
$late = preg_replace('/\}$/', ',"weight":4}', $line(300, 6.0, 'e', 30, null));
$hand = array_merge([$late, $line(300, 6.001, 'f', 31, 2), $line(300, 6.002, 'f', 31, 5)],
    array_map(fn($w) => str_replace('"clock":"wall"', "\"clock\":\"wall\",\"weight\":$w", $line(300, 6.003, 'g', 32, null)),
        ['0', '-1', '3.0', '"3"', '70000', 'null']));
$redis->cmd(['XADD', 'stat:samples', '*', 'v', '1', 'type', 'samples', 'host', 'h', 'pool', 'p', 'n', (string) count($hand),
    'first', (string) $now, 'last', (string) $now, 'lost', '0', 'encoding', 'jsonl', 'samples', implode("\n", $hand) . "\n"]);

[$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:samples', '--group', 'flames',
    '--dir', "$dir/flames", '--once']);
echo preg_replace(['/ entry \d+-\d+ of/', '/ written to \S+;/'], [' entry ID of', ' written to DIR;'], $err);
printf("aggregate: exit %d\n", $code);
$folded = fleet_folded("$dir/flames/daily/*.all.folded*");
printf("daily all: %s\n", json_encode($folded));
printf("hourly all the same: %s; the script's daily and hourly the same: %s\n",
    fleet_folded("$dir/flames/hourly/*.all.folded*") === $folded ? 'yes' : 'no',
    fleet_folded("$dir/flames/daily/*.srv_app_app.php.folded*") === $folded && fleet_folded("$dir/flames/hourly/*.srv_app_app.php.folded*") === $folded ? 'yes' : 'no');
$day = gmdate('Y-m-d', $now);
$flame = statq_flame_data(file_get_contents("$dir/flames/daily/$day.all.html"));
printf("flame graph: samples %d, root %d\n", $flame['samples'], $flame['tree'][1]);
printf("meta: %s\n", preg_replace('/ first .*/', '', trim(file_get_contents("$dir/flames/daily/$day.all.meta"))));
printf("index: %s\n", preg_match('/href="daily\/' . $day . '\.all\.html">[^<]*<\/a> <span class="n">(\d+) samples, /',
    file_get_contents("$dir/flames/index.html"), $m) ? "$m[1] samples" : 'no such line');
?>
--EXPECT--
ship: exit 0, 400 samples read and shipped in 3 entries, 2 malformed lines skipped
the lines as they came, weight and all: yes; entries' n: 150 150 100
statq: aggregate: entry ID of stat:samples: skipped 6 malformed lines
statq: aggregate: 4 entries, 403 samples (weighted 611) written to DIR; 0 malformed entries, 6 malformed lines skipped; 0 samples dropped by ship, 0 lost by stat, 0 entries trimmed before they were read
aggregate: exit 0
daily all: {"<app.php>;a":300,"<app.php>;b":300,"<app.php>;e":4,"<app.php>;f":7}
hourly all the same: yes; the script's daily and hourly the same: yes
flame graph: samples 611, root 611
meta: samples 611
index: 611 samples
