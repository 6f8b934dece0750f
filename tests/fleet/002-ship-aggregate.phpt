--TEST--
fleet: ship a real stat stream into a real redis-server, aggregate it: the folded counts equal those of a direct reader of the same stream; entries as documented; acknowledged; a second run adds nothing
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

/* one PHP process under stat; a direct reader (record) and ship read its stream at once */
$php = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '1000', 'stat.stack' => '16'],
    fleet_worker_script(2, 1500));
var_dump($php->waitFor("ready\n"));
$record = new Statq(['record', '-s', "$dir/stream.sock", '-o', "$dir/direct.jsonl"]);
$ship = new Statq(['ship', '-s', "$dir/stream.sock", '--redis', $redis->url(), '--stream', 'stat:samples', '--batch', '100',
    '--host', 'web1', '--pool', 'www']);
var_dump($php->wait(60));
printf("record: exit %d; ship: exit %d\n", $record->wait(), $ship->wait());
preg_match('/ship: (\d+) samples read, (\d+) shipped in (\d+) entries .* (\d+) dropped/', $ship->stderr(), $m);
[$direct] = stat_test_decode(file_get_contents("$dir/direct.jsonl"));
printf("ship read what the direct reader read: %s, shipped all: %s, dropped: %s\n",
    isset($m[1]) && (int) $m[1] === count($direct) ? 'yes' : 'no (' . ($m[1] ?? '?') . ' of ' . count($direct) . ")\n" . $ship->stderr(),
    isset($m[2]) && $m[2] === $m[1] ? 'yes' : 'no', $m[4] ?? '?');

/* the entries, as documented */
$entries = $redis->entries('stat:samples');
$lines = [];
$ok = true;
foreach ($entries as $id => $fields) {
    $batch = fleet_entry_lines($fields);
    $times = array_map(fn($l) => json_decode($l, true)['time'], $batch);
    $ok = $ok && $fields['v'] === '2' && $fields['type'] === 'samples' && $fields['host'] === 'web1' && $fields['pool'] === 'www'
        && $fields['encoding'] === 'packed+zstd' && (int) $fields['n'] === count($batch) && count($batch) <= 100
        && abs((float) $fields['first'] - min($times)) < 1e-5 && abs((float) $fields['last'] - max($times)) < 1e-5;
    array_push($lines, ...$batch);
}
printf("entries: %s, fields as documented: %s, their samples are the direct reader's: %s\n", count($entries) >= 15 ? 'yes' : 'no',
    $ok ? 'yes' : 'no', $lines === array_map(fn($s) => json_encode($s, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION), $direct)
    || array_map(fn($l) => json_decode($l, true), $lines) == $direct ? 'yes' : 'no');

/* aggregate: every sample, by its own time, in the daily and hourly files of `all` and of the script */
[$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:samples', '--group', 'flames',
    '--dir', "$dir/flames", '--once']);
preg_match('/aggregate: (\d+) entries, (\d+) samples \(weighted (\d+)\) written to .*?; (.*)$/', trim($err), $a);
printf("aggregate: exit %d, entries: %s, samples: %s, %s\n", $code, isset($a[1]) && (int) $a[1] === count($entries) ? 'all' : 'not all: ' . $err,
    /* samples outside PHP code ("memory") have no stack to fold: left out, as by fold; weighted: each as its weight */
    isset($a[2]) && (int) $a[2] === count($busy = array_filter($direct, fn($s) => statq_expected_frames($s) !== null))
    && (int) $a[3] === statq_weighted($busy) ? 'all' : 'not all', $a[4] ?? '');
[$code, $folded] = statq_run(['fold', '-f', "$dir/direct.jsonl"]);
$expected = statq_parse_folded($folded);
printf("daily all = the direct reader's fold: %s (%s samples)\n", fleet_folded("$dir/flames/daily/*.all.folded*") === $expected ? 'yes' : 'no',
    array_sum($expected) === statq_weighted(array_filter($direct, fn($s) => statq_expected_frames($s) !== null)) ? 'all' : 'not all');
printf("hourly all add up to the same: %s\n", fleet_folded("$dir/flames/hourly/*.all.folded*") === $expected ? 'yes' : 'no');
$script = str_replace('/', '_', ltrim($direct[0]['request']['path'], '/'));
printf("per script, the same (one script): %s\n", fleet_folded("$dir/flames/daily/*.$script.folded*") === $expected ? 'yes' : 'no');
$day = gmdate('Y-m-d', (int) $direct[0]['time']);
$hour = gmdate('Y-m-d_H', (int) $direct[0]['time']);
printf("files named by the samples' day and hour: %s\n", file_exists("$dir/flames/daily/$day.all.folded") && glob("$dir/flames/hourly/$hour.all.folded*") ? 'yes' : 'no');
$flame = statq_flame_data(file_get_contents("$dir/flames/daily/$day.all.html"));
printf("flame graph beside it, with every sample: %s\n", $flame && $flame['samples'] === array_sum($expected) ? 'yes' : 'no');
$index = file_get_contents("$dir/flames/index.html");
printf("index links the day: %s\n", str_contains($index, "<h2>$day</h2>") && str_contains($index, "href=\"daily/$day.all.html\"")
    && str_contains($index, "href=\"hourly/$hour.all.html\"") ? 'yes' : 'no');
/* the index: the day's `all` first, then its script, then the hours; each with its samples (by weight) and their first and last time */
preg_match_all('/<li><a href="([^"]+)\.html">[^<]*<\/a> <span class="n">(\d+) samples, ([\d:?]+) to ([\d:?]+)<\/span>/', $index, $items, PREG_SET_ORDER);
$kept = array_filter($direct, fn($s) => statq_expected_frames($s) !== null);
$times = array_map(fn($s) => gmdate('H:i:s', (int) $s['time']), $kept);
printf("index: first the day's all, then its script: %s; samples and times: %s\n",
    count($items) >= 2 && $items[0][1] === "daily/$day.all" && $items[1][1] === "daily/$day.$script" ? 'yes' : 'no: ' . implode(', ', array_column($items, 1)),
    $items && (int) $items[0][2] === statq_weighted($kept) && $items[0][3] === min($times) && $items[0][4] === max($times) ? 'yes' : 'no: ' . ($items[0][0] ?? ''));
printf("pending after: %d\n", $redis->pending('stat:samples', 'flames'));

/* a second run: nothing new, nothing counted twice; no temporary file left (.losses: the count of losses said, losses.h) */
[$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:samples', '--group', 'flames',
    '--dir', "$dir/flames", '--once']);
printf("again: exit %d, read %s, daily all unchanged: %s\n", $code, preg_match('/aggregate: 0 entries, 0 samples/', $err) ? 'nothing' : $err,
    fleet_folded("$dir/flames/daily/*.all.folded*") === $expected ? 'yes' : 'no');
$left = array_values(array_diff(scandir("$dir/flames"), ['.', '..']));
printf("left in the directory: %s\n", implode(' ', $left));
?>
--EXPECT--
bool(true)
int(0)
record: exit 0; ship: exit 0
ship read what the direct reader read: yes, shipped all: yes, dropped: 0
entries: yes, fields as documented: yes, their samples are the direct reader's: yes
aggregate: exit 0, entries: all, samples: all, 0 malformed entries, 0 malformed lines skipped; 0 samples dropped by ship, 0 lost by stat, 0 entries trimmed before they were read
daily all = the direct reader's fold: yes (all samples)
hourly all add up to the same: yes
per script, the same (one script): yes
files named by the samples' day and hour: yes
flame graph beside it, with every sample: yes
index links the day: yes
index: first the day's all, then its script: yes; samples and times: yes
pending after: 0
again: exit 0, read nothing, daily all unchanged: yes
left in the directory: .lock .losses daily hourly index.html
