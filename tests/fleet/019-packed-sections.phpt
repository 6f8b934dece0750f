--TEST--
fleet: ship's packed entries (v2) hold their records in three sections, every piece, then every tail, then the samples in the order read (the tails, numbers, are deflated with Huffman codes alone: the fast way for them); a zstd entry (the default) and a --gzip entry decompress to exactly the --plain entry of the same batch, and each gives back every line byte for byte
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

/* two real recordings of stat, their samples (stacks of 1 to 9 frames, two scripts) */
$lines = [];
foreach (['shop.jsonl', 'pool.jsonl'] as $name) {
    foreach (file(__DIR__ . "/../client/fixtures/$name", FILE_IGNORE_NEW_LINES) as $line) {
        if (in_array(json_decode($line, true)['type'] ?? '', ['user', 'internal', 'memory'], true)) {
            $lines[] = $line;
        }
    }
}
file_put_contents("$dir/all.jsonl", implode("\n", $lines) . "\n");

$texts = [];
foreach (['stat:zstd' => [], 'stat:gz' => ['--gzip'], 'stat:plain' => ['--plain']] as $stream => $more) {
    [$code] = statq_run(array_merge(['ship', '-f', "$dir/all.jsonl", '--redis', $redis->url(), '--stream', $stream,
        '--batch', '100', '--maxlen', '0'], $more));
    $sections = true;
    $back = [];
    foreach ($redis->entries($stream) as $fields) {
        $text = fleet_entry_data($fields);
        $texts[$stream][] = $text;
        /* the kinds of its records in order, each run of one kind once: "stp" */
        $kinds = preg_replace('/(.)\1+/', '$1', implode('', array_map(fn($r) => $r[0], array_filter(explode("\n", $text), 'strlen'))));
        $sections = $sections && $kinds === 'stp';
        $back = array_merge($back, fleet_entry_lines($fields));
    }
    printf("%s: exit %d, %d entries, every one pieces, then tails, then samples: %s, lines back byte for byte: %s\n", $stream, $code,
        count($texts[$stream]), $sections ? 'yes' : 'no', $back === $lines ? 'yes' : 'no');
}
printf("each zstd entry decompresses to the --plain entry of the same batch: %s\n", $texts['stat:zstd'] === $texts['stat:plain'] ? 'yes' : 'no');
printf("each gzip entry inflates to the --plain entry of the same batch: %s\n", $texts['stat:gz'] === $texts['stat:plain'] ? 'yes' : 'no');

/* aggregate reads them: every sample counted, the same folded stacks as statq fold */
[$code, $folded] = statq_run(['fold', '-f', "$dir/all.jsonl"]);
[$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:gz', '--group', 'g', '--dir', "$dir/out", '--once']);
$all = fleet_folded("$dir/out/daily/*.all.folded*");
printf("aggregate: exit %d, the daily all folded equals fold's: %s\n", $code, $all === statq_parse_folded($folded) && $all !== [] ? 'yes' : 'no');
?>
--EXPECT--
stat:zstd: exit 0, 7 entries, every one pieces, then tails, then samples: yes, lines back byte for byte: yes
stat:gz: exit 0, 7 entries, every one pieces, then tails, then samples: yes, lines back byte for byte: yes
stat:plain: exit 0, 7 entries, every one pieces, then tails, then samples: yes, lines back byte for byte: yes
each zstd entry decompresses to the --plain entry of the same batch: yes
each gzip entry inflates to the --plain entry of the same batch: yes
aggregate: exit 0, the daily all folded equals fold's: yes
