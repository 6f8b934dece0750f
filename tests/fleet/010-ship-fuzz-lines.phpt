--TEST--
fleet: ship fed mutated JSON lines (seeded, as client/024's readers are): it forwards exactly the lines every other command counts as samples, in order, and counts the malformed ones as they do (its samples' frames are checked once per distinct text, never less strictly)
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['redis-server'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';
require __DIR__ . '/../client/fuzz.inc';

$seed = getenv('STAT_FUZZ_SEED');
$seed = $seed !== false && $seed !== '' ? (int) $seed : random_int(1, PHP_INT_MAX);
echo "seed: $seed (STAT_FUZZ_SEED=$seed replays this run)\n";
mt_srand($seed);
$dir = stat_test_dir();
statq_binary();
$redis = new FleetRedis();
$base = fuzz_base_lines();

$problems = [];
$fed = 0;
for ($f = 0; $f < 8; $f++) {
    /* the same few samples again and again (their tails are remembered), mutated among them, and lines that repeat a key */
    $lines = [];
    for ($i = 0; $i < 3000; $i++) {
        $lines[] = $f % 2 ? fuzz_mutated_line($base) : (mt_rand(0, 3) ? fuzz_pick($base) : fuzz_mutated_line($base));
        if (mt_rand(0, 19) === 0) {
            /* a key the head says, again after the frames: the last one counts, as in the whole line */
            $lines[] = preg_replace('/\}$/', ',' . fuzz_pick(['"type":"lost"', '"time":"x"', '"time":1e999', '"elapsed":null',
                '"request":{"pid":"x","elapsed":[]}', '"type":"user"', '"time":1700000000.25', '"weight":0', '"weight":4',
                '"weight":2.0']) . '}', fuzz_pick($base));
        }
    }
    $text = implode("\n", $lines) . "\n";
    $fed += count($lines);
    file_put_contents("$dir/lines-$f.jsonl", $text);
    $expect = fuzz_text_count($text);
    $samples = array_values(array_filter(explode("\n", substr($text, 0, -1)), fn($line) => fuzz_classify($line) === 'sample'));

    [$code, $out, $err] = statq_run(['ship', '-f', "$dir/lines-$f.jsonl", '--redis', $redis->url(), '--stream', "fuzz:$f", '--plain',
        '--batch', '500', '--maxlen', '0']);
    $what = "file $f (seed $seed)";
    if ($code !== ($expect['sample'] > 0 ? 0 : 1)) {
        $problems[] = "$what: exit $code: " . substr($err, 0, 300);
    }
    $read = preg_match('/ship: (\d+) samples read/', $err, $m) ? (int) $m[1] : -1;
    $warned = preg_match('/skipped (\d+) malformed lines? in /', $err, $m) ? (int) $m[1] : 0;
    if ($read !== $expect['sample'] || $warned !== $expect['malformed']) {
        $problems[] = "$what: $read samples read and $warned malformed, expected {$expect['sample']} and {$expect['malformed']}";
    }
    $shipped = [];
    foreach ($redis->entries("fuzz:$f") as $fields) {
        if (($fields['type'] ?? '') === 'samples') {
            array_push($shipped, ...explode("\n", substr($fields['samples'], 0, -1)));
        }
    }
    /* a sample line goes on as it came, but for what the reader's line ending takes (a trailing \r) */
    if ($shipped !== array_map(fn($line) => rtrim($line, "\r"), $samples) && $shipped !== $samples) {
        $problems[] = "$what: " . count($shipped) . ' lines in Redis, not the ' . count($samples) . ' samples in order';
    }
}
printf("JSON lines fed to ship: %d (at least 20,000: %s)\n", $fed, $fed >= 20000 ? 'yes' : 'no');
printf("samples forwarded exactly, malformed counted as every reader counts them: %s\n", $problems ? "no:\n" . implode("\n", array_slice($problems, 0, 10)) : 'yes');
?>
--EXPECTF--
seed: %d (STAT_FUZZ_SEED=%d replays this run)
JSON lines fed to ship: %d (at least 20,000: yes)
samples forwarded exactly, malformed counted as every reader counts them: yes
