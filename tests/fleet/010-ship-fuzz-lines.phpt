--TEST--
fleet: ship fed mutated JSON lines (seeded, as client/024's readers are), and lines whose frames are mutated (nothing between commas, a comma before the ']', scalars, nesting around json-c's 32 levels, single quotes, bytes after a frame), and lines whose heads' numbers are changed (a head of a shape ship has parsed is read by its numbers alone: other integers and fractions, numbers JSON refuses, too long, too great, infinite, a weight added): it forwards exactly the lines every other command counts as samples, in order (those `statq record` keeps), and counts the malformed ones as they do (its samples' frames are checked once per distinct text, each frame once, never less strictly); packed entries say of each sample what its line says
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

/* a sample whose frames (its "stack" array, which ship checks frame by frame) are mutated */
function fleet_frames_mutated(array $base): string
{
    $line = fuzz_pick($base);
    $depth = mt_rand(26, 34);
    $deep = fn(string $open, string $close) => str_repeat($open, $depth) . '1' . str_repeat($close, $depth);
    $frame = fuzz_pick(['', ' ', ',', '{}x', '{"a":1}}', '01', '1e5,-0.5,true,null,"a\\\\",[],{}', "{'a':1}", '{"a":"' . chr(mt_rand(1, 31)) . '"}',
        $deep('[', ']'), '{"deep":' . $deep('{"a":', '}') . '}', '"\\ud800"', '{"a":"\\u00e9\\"\\\\"}', '[1,]', 'nul']);
    return fuzz_pick([
        str_replace('"stack":[', '"stack":[' . $frame . ',', $line),
        str_replace('"stack":[', '"stack":[' . $frame, $line),
        preg_replace('/\]\}$/', ',' . $frame . ']}', $line),
        str_replace('"stack":[', '"st\\u0061ck":[' . $frame, $line),
        str_replace('"stack":[', '"stack":{', $line),
    ]);
}

/* a sample whose head's numbers (after a ':') are changed: mostly to another of the same kind, so that its shape is one ship knows */
function fleet_head_mutated(array $base): string
{
    $line = fuzz_pick($base);
    $split = strpos($line, ',"location":');
    if ($split === false) {
        return $line;
    }
    $head = substr($line, 0, $split);
    if (mt_rand(0, 3) === 0) {
        $head .= ',"weight":' . fuzz_pick(['1', '2', '65535', '65536', '0', '-1', '2.0', '1e0', '3']);
    } elseif (mt_rand(0, 3) === 0 && strpos($head, ',"memory":') !== false) {
        /* a key twice: json-c keeps the last value where the first stood, here numbers of one kind in another order */
        $head = str_replace(',"memory":', ',"weight":"s","memory":', $head) . ',"weight":' . fuzz_pick(['1', '2', '3']);
    }
    $numbers = ['0', '-0', '7', '-7', '1000', '31337', '0.5', '-0.25', '1795737600.123456', '1.5e3', '1E5', '1e-7', '2.0',
        '01', '-01', '00', '1.', '.5', '-', '+1', '1e', '1e+', '1..2', '1-2', '1e5e', '0x10', '1x', '1e999', '-1e999',
        '9223372036854775807', '-9223372036854775808', '9223372036854775808', '18446744073709551615', '18446744073709551616',
        '123456789012345678', '-123456789012345678', '1234567890123456789', '12345678901234567890123', 'true', 'null', '"5"'];
    for ($k = mt_rand(1, 3); $k > 0; $k--) {
        if (preg_match_all('/(?<=:)-?[0-9][0-9.eE+-]*/', $head, $m, PREG_OFFSET_CAPTURE) === 0) {
            break;
        }
        [$old, $at] = fuzz_pick($m[0]);
        $head = substr($head, 0, $at) . fuzz_pick($numbers) . substr($head, $at + strlen($old));
    }
    return $head . substr($line, $split);
}

$problems = [];
$fed = 0;
/* files 0 to 7 mutated anywhere, 8 in the frames (json-c's depth counts there: record says what is malformed, not fuzz_classify), 9 in the heads' numbers */
for ($f = 0; $f < 10; $f++) {
    /* the same few samples again and again (their tails are remembered), mutated among them, and lines that repeat a key */
    $lines = [];
    for ($i = 0; $i < 3000; $i++) {
        $lines[] = $f === 9 ? (mt_rand(0, 2) ? fleet_head_mutated($base) : fuzz_pick($base))
            : ($f === 8 ? (mt_rand(0, 1) ? fuzz_pick($base) : fleet_frames_mutated($base))
            : ($f % 2 ? fuzz_mutated_line($base) : (mt_rand(0, 3) ? fuzz_pick($base) : fuzz_mutated_line($base))));
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

    /* packed entries (v2), but for file 7 (v1, --jsonl): plain, gzip */
    [$code, $out, $err] = statq_run(array_merge(['ship', '-f', "$dir/lines-$f.jsonl", '--redis', $redis->url(), '--stream', "fuzz:$f",
        '--batch', '500', '--maxlen', '0'], $f === 7 ? ['--jsonl'] : [], $f % 2 ? ['--plain'] : []));
    $what = "file $f (seed $seed)";
    if ($code !== ($expect['sample'] > 0 ? 0 : 1)) {
        $problems[] = "$what: exit $code: " . substr($err, 0, 300);
    }
    $read = preg_match('/ship: (\d+) samples read/', $err, $m) ? (int) $m[1] : -1;
    $warned = preg_match('/skipped (\d+) malformed lines? in /', $err, $m) ? (int) $m[1] : 0;
    if ($f < 8 && ($read !== $expect['sample'] || $warned !== $expect['malformed'])) {
        $problems[] = "$what: $read samples read and $warned malformed, expected {$expect['sample']} and {$expect['malformed']}";
    }
    $shipped = [];
    foreach ($redis->entries("fuzz:$f") as $fields) {
        if (($fields['type'] ?? '') !== 'samples') {
            continue;
        }
        foreach (fleet_entry_samples($fields) as [$line, $said]) {
            $shipped[] = $line;
            /* what a packed entry says of a sample is what its line says (a path cut at a NUL, as C reads it) */
            $sample = json_decode($line, true);
            $path = $sample['request']['path'] ?? null;
            $path = is_string($path) ? json_encode(explode("\0", $path)[0], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE) : null;
            $fact = [array_search($sample['type'] ?? '', ['', 'user', 'internal', 'memory'], true), $sample['weight'] ?? 1,
                (float) ($sample['time'] ?? 0), $path];
            if ($said !== null && ($said[0] !== $fact[0] || $said[1] !== $fact[1] || $said[2] !== $fact[2]
                    || ($said[3] === null ? null : json_decode($said[3])) !== ($path === null ? null : json_decode($path)))) {
                $problems[] = "$what: an entry says " . json_encode($said) . ' of ' . substr($line, 0, 200);
            }
        }
    }
    /* the samples `statq record` keeps (it checks each line whole), and as many malformed */
    [, , $recorded] = statq_run(['record', '-f', "$dir/lines-$f.jsonl", '-o', "$dir/record-$f.jsonl"]);
    $kept = array_values(array_filter(explode("\n", (string) @file_get_contents("$dir/record-$f.jsonl")),
        fn($line) => in_array(json_decode($line, true)['type'] ?? null, ['user', 'internal', 'memory'], true)));
    $skipped = preg_match('/skipped (\d+) malformed lines? in /', $recorded, $m) ? (int) $m[1] : 0;
    if ($shipped !== $kept || $warned !== $skipped) {
        $problems[] = "$what: ship forwarded " . count($shipped) . " lines and skipped $warned, record kept " . count($kept) . " samples and skipped $skipped";
    }
    /* a sample line goes on as it came, but for what the reader's line ending takes (a trailing \r) */
    if ($f < 8 && $shipped !== array_map(fn($line) => rtrim($line, "\r"), $samples) && $shipped !== $samples) {
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
