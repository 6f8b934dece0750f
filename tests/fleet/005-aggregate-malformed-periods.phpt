--TEST--
fleet: aggregate skips, counts and acknowledges malformed entries and lines; closed periods are written gzip-compressed, retention removes old hourly files (--retain-hours) and old days (--retain-days) and says what it removed, the index lists each day
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['redis-server'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
$redis = new FleetRedis();
/* samples of a real recording, moved in time: three days ago, two hours ago, now */
$lines = array_slice(file(__DIR__ . '/../client/fixtures/shop.jsonl', FILE_IGNORE_NEW_LINES), 0, 90);
$now = time();
$at = function (array $lines, int $time): array {
    return array_map(function ($line) use ($time) {
        $sample = json_decode($line, true);
        $sample['time'] = $time + 0.5;
        return json_encode($sample, JSON_UNESCAPED_SLASHES);
    }, $lines);
};
$old = $at(array_slice($lines, 0, 30), $now - 3 * 86400);
$recent = $at(array_slice($lines, 30, 30), $now - 7200);
$current = $at(array_slice($lines, 60, 30), $now);
$add = fn(array $fields) => $redis->cmd(array_merge(['XADD', 'stat:samples', '*'], $fields));
$entry = fn(array $lines, bool $gzip = true) => ['v', '1', 'type', 'samples', 'host', 'h', 'pool', 'p', 'n', (string) count($lines),
    'first', '0', 'last', '0', 'lost', '2', 'encoding', $gzip ? 'jsonl+gzip' : 'jsonl',
    'samples', $gzip ? gzencode(implode("\n", $lines) . "\n") : implode("\n", $lines) . "\n"];

$add($entry($old));
$add(['foo', 'bar']);
$add(['v', '3', 'type', 'samples']);
$add(['v', '1', 'type', 'samples', 'encoding', 'jsonl+gzip', 'samples', 'not gzip at all']);
$add(['v', '1', 'type', 'samples', 'encoding', 'zstd', 'samples', 'x']);
$add($entry(array_merge($recent, ['{"type":"user", broken', 'not json']), false));
$add($entry(['garbage', '[1,2]'], false));
$add(['v', '1', 'type', 'dropped', 'host', 'h', 'pool', 'p', 'n', '7', 'total', '7', 'first', '0', 'last', '0']);
$add($entry($current));

[$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:samples', '--group', 'g', '--dir', "$dir/out",
    '--once', '--retain-hours', '24']);
$dates = fn(string $text): string => preg_replace('/\d{4}-\d\d-\d\d \d\d:00/', 'DAY HH:00', $text);
echo $dates(preg_replace('/ entry \d+-\d+ of/', ' entry ID of', str_replace($dir, 'DIR', $err)));
printf("exit %d, pending: %d\n", $code, $redis->pending('stat:samples', 'g'));

$expect = fn(array $lines) => statq_parse_folded(statq_run(['fold', '-f', '-'], implode("\n", $lines) . "\n")[1]);
$all = $expect(array_merge($old, $recent, $current));
printf("daily all: every good sample, once: %s\n", fleet_folded("$dir/out/daily/*.all.folded*") === $all ? 'yes' : 'no');
$day = fn(int $t) => gmdate('Y-m-d', $t);
$hour = fn(int $t) => gmdate('Y-m-d_H', $t);
printf("three days ago: daily closed, gzip: %s, same counts: %s; hourly removed (24 h kept): %s\n",
    file_exists("$dir/out/daily/{$day($now - 3 * 86400)}.all.folded.gz") && !file_exists("$dir/out/daily/{$day($now - 3 * 86400)}.all.folded") ? 'yes' : 'no',
    fleet_folded("$dir/out/daily/{$day($now - 3 * 86400)}.all.folded*") === $expect($old) ? 'yes' : 'no',
    glob("$dir/out/hourly/{$hour($now - 3 * 86400)}.*") ? 'no' : 'yes');
printf("two hours ago: hourly closed, gzip: %s, same counts: %s, flame graph: %s\n",
    file_exists("$dir/out/hourly/{$hour($now - 7200)}.all.folded.gz") ? 'yes' : 'no',
    fleet_folded("$dir/out/hourly/{$hour($now - 7200)}.all.folded*") === $expect($recent) ? 'yes' : 'no',
    file_exists("$dir/out/hourly/{$hour($now - 7200)}.all.html") ? 'yes' : 'no');
printf("this hour: plain: %s\n", file_exists("$dir/out/hourly/{$hour($now)}.all.folded") ? 'yes' : 'no');
$index = file_get_contents("$dir/out/index.html");
printf("index: a heading per day: %s\n", substr_count($index, '<h2>') === count(array_unique([$day($now - 3 * 86400), $day($now - 7200), $day($now)])) ? 'yes' : 'no');

/* late samples for a closed period merge into its .gz */
$add($entry(array_slice($old, 0, 5)));
[$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:samples', '--group', 'g', '--dir', "$dir/out", '--once']);
printf("late samples merged into the closed day: %s, no plain file beside: %s\n",
    fleet_folded("$dir/out/daily/{$day($now - 3 * 86400)}.all.folded*") === $expect(array_merge($old, array_slice($old, 0, 5))) ? 'yes' : 'no',
    file_exists("$dir/out/daily/{$day($now - 3 * 86400)}.all.folded") ? 'no' : 'yes');

/* --retain-days 2: the day that ended more than two days ago goes (folded and flame graph), today stays, the index forgets it */
[$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:samples', '--group', 'g', '--dir', "$dir/out",
    '--once', '--retain-days', '2']);
echo $dates(preg_replace('/.*aggregate: \d+ entries.*\n/', '', $err));
printf("--retain-days 2: exit %d, three days ago removed: %s, today kept: %s, the index without it: %s\n", $code,
    glob("$dir/out/daily/{$day($now - 3 * 86400)}.*") ? 'no' : 'yes', file_exists("$dir/out/daily/{$day($now)}.all.folded") ? 'yes' : 'no',
    str_contains(file_get_contents("$dir/out/index.html"), "<h2>{$day($now - 3 * 86400)}</h2>") ? 'no' : 'yes');
?>
--EXPECT--
statq: aggregate: skipped entry ID of stat:samples: no field v: not an entry of statq ship (acknowledged; it will not be read again)
statq: aggregate: skipped entry ID of stat:samples: an entry format other than v=1 and v=2 (a newer statq ship?) (acknowledged; it will not be read again)
statq: aggregate: skipped entry ID of stat:samples: its samples are not whole gzip data (acknowledged; it will not be read again)
statq: aggregate: skipped entry ID of stat:samples: an unknown encoding (acknowledged; it will not be read again)
statq: aggregate: entry ID of stat:samples: skipped 2 malformed lines
statq: aggregate: skipped entry ID of stat:samples: none of its lines is a stat sample (acknowledged; it will not be read again)
statq: aggregate: retention: removed 6 files of periods from DAY HH:00 to DAY HH:00 UTC (older than --retain-hours 24 for hourly files, --retain-days 90 for daily ones)
statq: aggregate: 9 entries, 90 samples (weighted 90) written to DIR/out; 5 malformed entries, 4 malformed lines skipped; 7 samples dropped by ship, 8 lost by stat, 0 entries trimmed before they were read
exit 0, pending: 0
daily all: every good sample, once: yes
three days ago: daily closed, gzip: yes, same counts: yes; hourly removed (24 h kept): yes
two hours ago: hourly closed, gzip: yes, same counts: yes, flame graph: yes
this hour: plain: yes
index: a heading per day: yes
late samples merged into the closed day: yes, no plain file beside: yes
statq: aggregate: retention: removed 6 files of periods from DAY HH:00 to DAY HH:00 UTC (older than --retain-hours 48 for hourly files, --retain-days 2 for daily ones)
--retain-days 2: exit 0, three days ago removed: yes, today kept: yes, the index without it: yes
