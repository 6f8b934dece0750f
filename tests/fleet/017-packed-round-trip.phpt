--TEST--
fleet: ship's packed entries (v2) round-trip: a real recording (stacks 2 to 40 deep, closures, methods, internal calls) and lines stat may write (a stack of scalars, whitespace in it, an empty one, none, an idle sample, weights, a path with quotes, a backslash and UTF-8, a key after the frames) come back from ship's entries (zstd, --gzip and --plain) byte for byte, with the fields each entry says being the line's; aggregate's folded counts equal `statq fold`'s of the same recording exactly, in every file, also in a running aggregate whose flushes keep what they interned; malformed packed records, and zstd that is not one whole frame, are counted and skipped
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

/* a real recording: recursion of many depths through a method and a closure, ending in user and internal code */
$file = statq_record_script(<<<'PHP'
<?php
function leaf(int $n): int { $s = 0; for ($i = 0; $i < $n; $i++) { $s += $i % 7; } return $s + strlen(md5(str_repeat('x', $n))); }
final class Tree {
    public function walk(int $depth): int { return $depth > 0 ? $this->walk($depth - 1) + 1 : leaf(3000); }
}
$deeper = function (int $depth) use (&$deeper): int { return $depth > 0 ? $deeper($depth - 1) : leaf(2000); };
$tree = new Tree;
$deadline = microtime(true) + 20;
for ($k = 0; stat\counters()['samples_written'] < 1500 && microtime(true) < $deadline; $k++) {
    $depth = ($k * 7) % 39 + 2;
    $k % 3 ? $tree->walk($depth) : $deeper($depth);
}
PHP, ['stat.interval' => '500', 'stat.stack' => '64']);
$recorded = array_values(array_filter(explode("\n", file_get_contents($file)),
    fn($l) => in_array(json_decode($l, true)['type'] ?? '', ['user', 'internal', 'memory'], true)));

/* lines stat may write, at the recording's time: each a sample every reader takes */
$time = json_decode($recorded[0], true)['time'];
$head = fn(string $type, string $path, ?int $weight = null) => substr(json_encode(['type' => $type,
    'request' => ['pid' => 7, 'elapsed' => 0.5, 'path' => $path], 'elapsed' => 1.25, 'time' => $time, 'clock' => 'wall']
    + ($weight ? ['weight' => $weight] : []) + ['memory' => ['used' => 1, 'peak' => 2]], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), 0, -1);
$odd = '/srv/ödd "quoted" \\ app.php';
$at = '"location":{"file":"/srv/a.php","line":3},"symbol":{"function":"a;b%c"}';
$crafted = [
    $head('user', '/srv/a.php') . ",$at,\"stack\":[null,1,\"x\",[],{}]}",
    $head('user', '/srv/a.php', 3) . ",$at,\"stack\":[ {\"function\":\"a;b%c\",\"file\":\"/srv/a.php\",\"line\":3} , {\"file\":\"/srv/a.php\",\"line\":9} ]}",
    $head('user', '/srv/a.php') . ",$at,\"stack\":[]}",
    $head('user', '/srv/a.php') . ",$at,\"stack\":[ ]}",
    $head('user', $odd, 7) . ",$at}",
    $head('internal', $odd) . ',"symbol":{"function":"strlen"},"stack":[{"function":"strlen"},{"function":"f","file":"/srv/a.php","line":4}]}',
    $head('memory', '/srv/a.php') . '}',
    $head('user', '/srv/a.php') . ",$at,\"stack\":[{\"function\":\"z\",\"file\":\"/srv/a.php\",\"line\":5}],\"weight\":2}",
    $head('user', '/srv/a.php') . ",$at,\"st\\u0061ck\":[{\"function\":\"y\",\"file\":\"/srv/a.php\",\"line\":6}]}",
];
$lines = array_merge($recorded, $crafted, $recorded);
file_put_contents("$dir/all.jsonl", implode("\n", $lines) . "\n");
[$code, $folded] = statq_run(['fold', '-f', "$dir/all.jsonl"]);
$expected = statq_parse_folded($folded);
$depths = array_map(fn($l) => count(json_decode($l, true)['stack'] ?? []), $recorded);
printf("recording: at least 1,000 samples: %s, stacks from 2 to 40 frames deep: %s; fold counts every sample as its weight: %s\n",
    count($recorded) >= 1000 ? 'yes' : 'no', min($depths) <= 4 && max($depths) >= 38 ? 'yes' : 'no: ' . min($depths) . ' to ' . max($depths),
    array_sum($expected) === statq_weighted(array_filter(array_map(fn($l) => json_decode($l, true), $lines),
        fn($s) => statq_expected_frames($s) !== null)) ? 'yes' : 'no');

/* ship, packed (zstd, gzip and --plain): each line back as it was, and what the entry says of it the line's own */
$encodings = ['stat:zstd' => 'packed+zstd', 'stat:gz' => 'packed+gzip', 'stat:plain' => 'packed'];
foreach (['stat:zstd' => [], 'stat:gz' => ['--gzip'], 'stat:plain' => ['--plain']] as $stream => $more) {
    [$code, $out, $err] = statq_run(array_merge(['ship', '-f', "$dir/all.jsonl", '--redis', $redis->url(), '--stream', $stream,
        '--batch', '100', '--maxlen', '0'], $more));
    $back = [];
    $right = true;
    $entries = $redis->entries($stream);
    foreach ($entries as $fields) {
        $samples = fleet_entry_samples($fields);
        $right = $right && $fields['v'] === '2' && $fields['encoding'] === $encodings[$stream] && (int) $fields['n'] === count($samples);
        foreach ($samples as [$line, [$kind, $weight, $when, $path]]) {
            $sample = json_decode($line, true);
            $back[] = $line;
            $right = $right && $kind === array_search($sample['type'], ['', 'user', 'internal', 'memory'], true)
                && $weight === ($sample['weight'] ?? 1) && $when === (float) $sample['time'] && json_decode((string) $path) === $sample['request']['path'];
        }
    }
    printf("%s: exit %d, entries of v2, %s: %s, lines back byte for byte: %s, fields right: %s\n", $stream, $code,
        $encodings[$stream], $right && count($entries) >= 20 ? 'yes' : 'no', $back === $lines ? 'yes' : 'no', $right ? 'yes' : 'no');
}
/* packed: each frame once an entry (before gzip) */
$plain = array_sum(array_map(fn($f) => strlen($f['samples']), $redis->entries('stat:plain')));
printf("packed, under 40%% of the lines' bytes: %s\n", $plain < 0.4 * strlen(implode("\n", $lines)) ? 'yes' : 'no: ' . round(100 * $plain / strlen(implode("\n", $lines))) . '%');

/* aggregate: the same folded counts as fold, in the daily and hourly files of all and of each script */
foreach (['stat:zstd' => 'zstd', 'stat:gz' => 'gz', 'stat:plain' => 'plain'] as $stream => $name) {
    [$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', $stream, '--group', 'g', '--dir', "$dir/$name", '--once']);
    $scripts = [];
    foreach (glob("$dir/$name/daily/*.folded*") as $path) {
        if (!preg_match('/\.all\.folded/', $path)) {
            $scripts = array_merge_recursive($scripts, [fleet_folded($path)]);
        }
    }
    $sum = [];
    foreach ($scripts as $one) {
        foreach ($one as $stack => $count) {
            $sum[$stack] = ($sum[$stack] ?? 0) + $count;
        }
    }
    ksort($sum, SORT_STRING);
    $flames = [];
    foreach (glob("$dir/$name/{daily,hourly}/*.folded*", GLOB_BRACE) as $path) {
        $flames[] = fleet_flame_differs((string) @file_get_contents(preg_replace('/\.folded(\.gz)?$/', '.html', $path)), fleet_folded($path));
    }
    printf("aggregate %s: exit %d, %s; daily all = fold: %s, hourly all: %s, the scripts' (%d) add up: %s; each flame graph draws its folded counts: %s\n", $name, $code,
        preg_match('/aggregate: \d+ entries, \d+ samples \(weighted (\d+)\) written .*; 0 malformed entries, 0 malformed lines skipped;/', $err, $m)
        && (int) $m[1] === array_sum($expected) ? 'every sample' : $err,
        fleet_folded("$dir/$name/daily/*.all.folded*") === $expected ? 'yes' : 'no', fleet_folded("$dir/$name/hourly/*.all.folded*") === $expected ? 'yes' : 'no',
        count($scripts), $sum === $expected ? 'yes' : 'no', $flames && !array_filter($flames) ? 'yes' : json_encode(array_filter($flames)));
}

/* a running aggregate: a first half written, then the rest (the same stacks again) written by a later flush, from what it kept */
$a = new Statq(['aggregate', '--redis', $redis->url(), '--stream', 'stat:run', '--group', 'g', '--dir', "$dir/run", '--flush', '1']);
$half = intdiv(count($lines), 2);
file_put_contents("$dir/first.jsonl", implode("\n", array_slice($lines, 0, $half)) . "\n");
file_put_contents("$dir/second.jsonl", implode("\n", array_slice($lines, $half)) . "\n");
$first = statq_parse_folded(statq_run(['fold', '-f', "$dir/first.jsonl"])[1]);
statq_run(['ship', '-f', "$dir/first.jsonl", '--redis', $redis->url(), '--stream', 'stat:run', '--batch', '100']);
printf("running, first half on disk: %s\n", stat_test_until(fn() => fleet_folded("$dir/run/daily/*.all.folded*") === $first) ? 'yes' : 'no');
statq_run(['ship', '-f', "$dir/second.jsonl", '--redis', $redis->url(), '--stream', 'stat:run', '--batch', '100']);
printf("then the rest, merged: %s\n", stat_test_until(fn() => fleet_folded("$dir/run/daily/*.all.folded*") === $expected) ? 'yes' : 'no');
$a->signal(SIGTERM);
printf("stopped: exit %d, pending %d\n", $a->wait(), $redis->pending('stat:run', 'g'));

/* packed entries written by hand: what is not a record, or names what is not there, is a malformed line */
$good = $head('user', '/srv/m.php');
$records = [
    's "location":{"file":"/srv/m.php","line":1},"symbol":{"function":"m"},"stack":[',
    's ]}',
    's {"function":"m","file":"/srv/m.php","line":1}',
    's "/srv/m.php"',
    't 0 1 2',
    "p 0 1 1 $time 3 $good",           /* m */
    "p - 1 1 $time 3 $good,\"location\":{\"file\":\"/srv/m.php\",\"line\":2},\"symbol\":{\"function\":\"w\"}}",  /* w, read whole */
    'x what is this',                  /* no record */
    't 0 9',                           /* a piece not written (the tail is numbered 1 all the same) */
    "p 5 1 1 $time 3 $good",           /* a tail not written */
    "p 1 1 1 $time 3 $good",           /* a tail that names a piece not written */
    "p 0 4 1 $time 3 $good",           /* kind 4 */
    "p 0 1 0 $time 3 $good",           /* weight 0 */
    "p 0 1 1 soon 3 $good",            /* a time that is no number */
    "p 0 1 1 1.2.3 3 $good",           /* a time of two points */
    "p 0 1 1 - 3 $good",               /* a sign alone */
    "p 0 1 1 1e999 3 $good",           /* a time that is not finite */
    'p 0 1 1 ' . (int) $time . ". 3 $good",            /* m: a point and no decimals, as strtod reads it */
    'p 0 1 1 ' . sprintf('%.6e', $time) . " 3 $good",  /* m: an exponent (strtod) */
    "p 0 1 1 $time 99 $good",          /* a path piece not written */
    "p 0 1 1 $time 0 $good",           /* a path that is no JSON string */
    "p - 1 1 $time - not json",        /* a line that is no JSON */
    's garbage',
    't 0 1 4',
    "p 2 1 1 $time 3 $good",           /* its tail's text does not parse: read whole, no JSON */
];
$bad = fn(array $records, bool $gzip) => ['v', '2', 'type', 'samples', 'host', 'h', 'pool', 'p', 'n', '9', 'first', (string) $time,
    'last', (string) $time, 'lost', '0', 'encoding', $gzip ? 'packed+gzip' : 'packed',
    'samples', $gzip ? gzencode(implode("\n", $records) . "\n") : implode("\n", $records) . "\n"];
$redis->cmd(array_merge(['XADD', 'stat:bad', '*'], $bad($records, true)));
$redis->cmd(array_merge(['XADD', 'stat:bad', '*'], $bad(['x', 'p 0 1 1 0 - {}'], false)));
$redis->cmd(array_merge(['XADD', 'stat:bad', '*'], array_replace($bad([], false), [19 => 'not gzip'], [17 => 'packed+gzip'])));
$redis->cmd(array_merge(['XADD', 'stat:bad', '*'], array_replace($bad($records, false), [17 => 'jsonl'])));
/*
 * zstd: one whole frame is read; anything else (not zstd, a frame and more,
 * a frame cut short, a frame that asks for a 128 MiB window) is a malformed entry
 */
$frame = fleet_zstd(implode("\n", array_slice($records, 0, 6)) . "\n");
$wide = fleet_zstd(implode("\n", array_slice($records, 0, 6)) . "\n", 27);
printf("the wide frame: zstd reads it with --long=27: %s, not within 16 MiB: %s\n", fleet_unzstd($wide, ['--long=27']) !== null ? 'yes' : 'no',
    fleet_unzstd($wide, ['--memory=16MB']) === null ? 'yes' : 'no');
foreach ([$frame, 'not zstd', "$frame\0", substr($frame, 0, -3), $wide] as $data) {
    $redis->cmd(array_merge(['XADD', 'stat:bad', '*'], array_replace($bad([], false), [17 => 'packed+zstd', 19 => $data])));
}
[$code, $out, $err] = statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:bad', '--group', 'g', '--dir', "$dir/bad", '--once']);
echo preg_replace(['/ entry \d+-\d+ of/', '/ written to \S+;/'], [' entry ID of', ' written to DIR;'], $err);
printf("exit %d; daily all: %s\n", $code, json_encode(fleet_folded("$dir/bad/daily/*.all.folded*")));
?>
--EXPECT--
recording: at least 1,000 samples: yes, stacks from 2 to 40 frames deep: yes; fold counts every sample as its weight: yes
stat:zstd: exit 0, entries of v2, packed+zstd: yes, lines back byte for byte: yes, fields right: yes
stat:gz: exit 0, entries of v2, packed+gzip: yes, lines back byte for byte: yes, fields right: yes
stat:plain: exit 0, entries of v2, packed: yes, lines back byte for byte: yes, fields right: yes
packed, under 40% of the lines' bytes: yes
aggregate zstd: exit 0, every sample; daily all = fold: yes, hourly all: yes, the scripts' (3) add up: yes; each flame graph draws its folded counts: yes
aggregate gz: exit 0, every sample; daily all = fold: yes, hourly all: yes, the scripts' (3) add up: yes; each flame graph draws its folded counts: yes
aggregate plain: exit 0, every sample; daily all = fold: yes, hourly all: yes, the scripts' (3) add up: yes; each flame graph draws its folded counts: yes
running, first half on disk: yes
then the rest, merged: yes
stopped: exit 0, pending 0
the wide frame: zstd reads it with --long=27: yes, not within 16 MiB: yes
statq: aggregate: entry ID of stat:bad: skipped 14 malformed lines
statq: aggregate: skipped entry ID of stat:bad: none of its lines is a stat sample (acknowledged; it will not be read again)
statq: aggregate: skipped entry ID of stat:bad: its samples are not whole gzip data (acknowledged; it will not be read again)
statq: aggregate: skipped entry ID of stat:bad: an unknown encoding (acknowledged; it will not be read again)
statq: aggregate: skipped entry ID of stat:bad: its samples are not one whole zstd frame with a window of at most 16 MiB (acknowledged; it will not be read again)
statq: aggregate: skipped entry ID of stat:bad: its samples are not one whole zstd frame with a window of at most 16 MiB (acknowledged; it will not be read again)
statq: aggregate: skipped entry ID of stat:bad: its samples are not one whole zstd frame with a window of at most 16 MiB (acknowledged; it will not be read again)
statq: aggregate: skipped entry ID of stat:bad: its samples are not one whole zstd frame with a window of at most 16 MiB (acknowledged; it will not be read again)
statq: aggregate: 9 entries, 5 samples (weighted 5) written to DIR; 7 malformed entries, 16 malformed lines skipped; 0 samples dropped by ship, 0 lost by stat, 0 entries trimmed before they were read
exit 0; daily all: {"m":4,"w":1}
