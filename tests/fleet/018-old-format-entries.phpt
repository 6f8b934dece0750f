--TEST--
fleet: entries of the old format (v1, stat's JSON lines) still in the stream when the aggregator is upgraded are read with the new ones: a recording in five parts, as an older ship wrote them (jsonl+gzip, and --plain's jsonl), as ship --jsonl writes them, packed and gzip (v2 as the ship before zstd wrote it, and --gzip now) and packed and zstd (v2, ship's default), in one stream: one aggregate counts every sample of all five, its folded counts those of `statq fold` of the recording
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
$file = statq_record_script(statq_hot_script(400), ['stat.interval' => '500', 'stat.stack' => '16']);
$lines = array_values(array_filter(explode("\n", file_get_contents($file)),
    fn($l) => in_array(json_decode($l, true)['type'] ?? '', ['user', 'internal', 'memory'], true)));
$parts = array_chunk($lines, (int) ceil(count($lines) / 5));

/* an older ship's entries, as it wrote them (v1): gzip, and plain */
foreach ([[$parts[0], true], [$parts[1], false]] as [$part, $gzip]) {
    $times = array_map(fn($l) => json_decode($l, true)['time'], $part);
    $text = implode("\n", $part) . "\n";
    $redis->cmd(['XADD', 'stat:samples', '*', 'v', '1', 'type', 'samples', 'host', 'web1', 'pool', 'www', 'n', (string) count($part),
        'first', sprintf('%.6f', min($times)), 'last', sprintf('%.6f', max($times)), 'lost', '0',
        'encoding', $gzip ? 'jsonl+gzip' : 'jsonl', 'samples', $gzip ? gzencode($text) : $text]);
}
/* then ship --jsonl (v1), ship --gzip and ship (v2) */
foreach ([2 => ['--jsonl'], 3 => ['--gzip'], 4 => []] as $k => $more) {
    file_put_contents("$dir/part-$k.jsonl", implode("\n", $parts[$k]) . "\n");
    [$code, $out, $err] = statq_run(array_merge(['ship', '-f', "$dir/part-$k.jsonl", '--redis', $redis->url(), '--stream', 'stat:samples',
        '--maxlen', '0'], $more));
    printf("%s: exit %d\n", implode(' ', array_merge(['ship'], $more)), $code);
}
$formats = array_map(fn($f) => $f['v'] . ' ' . $f['encoding'], $redis->entries('stat:samples'));
printf("entries: %s\n", implode(', ', $formats));
$back = array_merge(...array_map('fleet_entry_lines', array_values($redis->entries('stat:samples'))));
printf("their lines are the recording's: %s\n", $back === $lines ? 'yes' : 'no');

/* one aggregate reads all five */
[$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:samples', '--group', 'flames',
    '--dir', "$dir/flames", '--once']);
$kept = array_filter(array_map(fn($l) => json_decode($l, true), $lines), fn($s) => statq_expected_frames($s) !== null);
preg_match('/aggregate: (\d+) entries, (\d+) samples \(weighted (\d+)\) written to .*?; (.*)$/', trim($err), $a);
printf("aggregate: exit %d, entries: %s, samples: %s, %s\n", $code, ($a[1] ?? '') === '5' ? 'all 5' : $err,
    isset($a[2]) && (int) $a[2] === count($kept) && (int) $a[3] === statq_weighted($kept) ? 'all' : 'not all', $a[4] ?? '');
[$code, $folded] = statq_run(['fold', '-f', $file]);
$expected = statq_parse_folded($folded);
printf("daily all = fold of the recording: %s; hourly all: %s\n", fleet_folded("$dir/flames/daily/*.all.folded*") === $expected ? 'yes' : 'no',
    fleet_folded("$dir/flames/hourly/*.all.folded*") === $expected ? 'yes' : 'no');
printf("pending after: %d\n", $redis->pending('stat:samples', 'flames'));
?>
--EXPECT--
ship --jsonl: exit 0
ship --gzip: exit 0
ship: exit 0
entries: 1 jsonl+gzip, 1 jsonl, 1 jsonl+gzip, 2 packed+gzip, 2 packed+zstd
their lines are the recording's: yes
aggregate: exit 0, entries: all 5, samples: all, 0 malformed entries, 0 malformed lines skipped; 0 samples dropped by ship, 0 lost by stat, 0 entries trimmed before they were read
daily all = fold of the recording: yes; hourly all: yes
pending after: 0
