--TEST--
client: a sample's "weight" (a late tick stands for the intervals it missed) counts as that many samples: 100 samples of a with weight 3 and 300 of b without are 50% each in top, fold, flame, speedscope (count and time weights) and pprof (go tool pprof: samples and wall time, from a file and from a stream socket); a weight that is not an integer from 1 to 65535 makes the line malformed
--SKIPIF--
<?php require __DIR__ . '/../fleet/fleet.inc'; if ($reason = fleet_skip_reason(['go'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../fleet/fleet.inc';

$dir = stat_test_dir();
$file = '/srv/app/app.php';
/* a sample as stat writes it (its head, then its frames): $weight null writes none, anything else is written as given */
$line = function (int $pid, float $elapsed, string $function, int $at, $weight) use ($file): string {
    $sample = ['type' => 'user', 'request' => ['pid' => $pid, 'elapsed' => 0.5, 'path' => $file], 'elapsed' => $elapsed,
        'time' => 1795000000 + $elapsed, 'clock' => 'wall'] + ($weight === null ? [] : ['weight' => $weight])
        + ['memory' => ['used' => 400000, 'peak' => 500000], 'location' => ['file' => $file, 'line' => $at],
            'symbol' => ['function' => $function],
            'stack' => [['function' => $function, 'file' => $file, 'line' => $at], ['file' => $file, 'line' => 20]]];
    return json_encode($sample, JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION);
};
/*
 * Two processes, one request each, on a 1 ms interval: 50 times a (a late tick: weight 3, 3 ms after the
 * sample before it) then three b (1 ms apart; one says "weight":1, the same as none). In all, 100 samples
 * of a that stand for 300 intervals and 300 of b: half the time each. Each request begins with an a.
 */
$lines = [];
foreach ([100, 200] as $pid) {
    $t = 1.0;
    for ($round = 0; $round < 50; $round++) {
        $t += 0.003;
        $lines[] = $line($pid, round($t, 6), 'a', 5, 3);
        for ($k = 0; $k < 3; $k++) {
            $t += 0.001;
            $lines[] = $line($pid, round($t, 6), 'b', 10, $round === 7 && $k === 1 ? 1 : null);
        }
    }
}
/* weights that are not stat's: each line malformed, c never counted (3.0 and 1e2 are not JSON integers) */
$bad = ['0', '-3', '2.5', '3.0', '1e2', '"3"', 'true', 'null', '[3]', '65536', '9223372036854775807'];
foreach ($bad as $weight) {
    $lines[] = str_replace('"clock":"wall"', '"clock":"wall","weight":' . $weight, $line(300, 5.0, 'c', 15, null));
}
/* the greatest weight is taken (elsewhere: it would outweigh everything) */
file_put_contents("$dir/max.jsonl", $line(300, 5.0, 'd', 16, 65535) . "\n" . $line(300, 5.001, 'e', 17, null) . "\n");
$text = implode("\n", $lines) . "\n";
file_put_contents("$dir/weights.jsonl", $text);
$malformed = fn(string $err): string => preg_match('/skipped (\d+) malformed lines? in /', $err, $m) ? $m[1] : '0';

/* top: the table by weight, the header both counts */
[$code, $out, $err] = statq_run(['top', '--once', '--rows', '0', '-f', "$dir/weights.jsonl"]);
printf("top: exit %d, malformed lines said: %s\n", $code, $malformed($err));
preg_match('/^samples (\d+) \(weighted (\d+)\), rate [\d.]+\/s, lost 0, failed n\/a, malformed (\d+), /m', $out, $m);
printf("top header: samples %s (weighted %s), malformed %s\n", $m[1] ?? '?', $m[2] ?? '?', $m[3] ?? '?');
foreach (statq_parse_top($out) as [$self, $selfShare, $total, $totalShare, $name]) {
    printf("top: %-9s self %d %.2f%%, total %d %.2f%%\n", $name, $self, $selfShare, $total, $totalShare);
}

/* fold */
[$code, $out] = statq_run(['fold', '-f', "$dir/weights.jsonl"]);
printf("fold: exit %d: %s\n", $code, json_encode(statq_parse_folded($out)));

/* flame: the page's samples, the tree's root and its leaves */
[$code] = statq_run(['flame', '-f', "$dir/weights.jsonl", '-o', "$dir/flame.html"]);
$data = statq_flame_data(file_get_contents("$dir/flame.html"));
$leaves = [];
foreach ($data['tree'][3][0][3] ?? [] as [$name, $total, $self]) {
    $leaves[$data['names'][$name]] = [$total, $self];
}
ksort($leaves);
printf("flame: exit %d, samples %d, root %d, under %s: %s\n", $code, $data['samples'], $data['tree'][1],
    $data['names'][$data['tree'][3][0][0]] ?? '?', json_encode($leaves));

/* speedscope: weight per leaf, per profile */
$speedscope = function (array $args) use ($dir): array {
    [$code, $out] = statq_run(array_merge(['speedscope', '-f', "$dir/weights.jsonl"], $args));
    $json = json_decode($out, true);
    $names = array_column($json['shared']['frames'], 'name');
    $shown = [];
    foreach ($json['profiles'] as $profile) {
        $leaves = [];
        foreach ($profile['samples'] as $i => $stack) {
            $leaves[$names[end($stack)]] = ($leaves[$names[end($stack)]] ?? 0) + $profile['weights'][$i];
        }
        ksort($leaves);
        $shown[] = sprintf('%s: %s, %s to %s', $profile['name'], implode(' ', array_map(fn($n, $w) => sprintf('%s %s', $n,
            is_int($w) ? $w : sprintf('%.6f', $w)), array_keys($leaves), $leaves)), is_int($profile['startValue']) ? $profile['startValue']
            : sprintf('%.6f', $profile['startValue']), is_int($profile['endValue']) ? $profile['endValue'] : sprintf('%.6f', $profile['endValue']));
    }
    return [$code, implode('; ', $shown)];
};
foreach ([['--weights', 'count', '--merge'], ['--weights', 'count'], ['--merge'], ['--weights', 'time']] as $args) {
    printf("speedscope %s: exit %d, %s\n", implode(' ', $args), ...$speedscope($args));
}

/* pprof, read by go tool pprof -raw: samples/count and wall/nanoseconds per leaf, and the interval */
$pprof = function (string $profile): string {
    [$code, $out, $err] = fleet_pprof(['-raw', $profile]);
    preg_match_all('/^\s+(\d+): 0x0 M=1 (\S+) /m', $out, $locations, PREG_SET_ORDER);
    $names = array_column($locations, 2, 1);
    preg_match_all('/^\s+(\d+)\s+(\d+): (\d+) /m', $out, $samples, PREG_SET_ORDER);
    $leaves = [];
    foreach ($samples as [, $count, $wall, $leaf]) {
        $leaves[$names[$leaf]][0] = ($leaves[$names[$leaf]][0] ?? 0) + (int) $count;
        $leaves[$names[$leaf]][1] = ($leaves[$names[$leaf]][1] ?? 0) + (int) $wall;
    }
    ksort($leaves);
    preg_match('/^Period: (\d+)$/m', $out, $period);
    return sprintf('go tool pprof: exit %d, types %s, period %s, %s', $code, preg_match('/^samples\/count wall\/nanoseconds$/m', $out) ? 'samples/count wall/nanoseconds' : '?',
        $period[1] ?? '?', implode(', ', array_map(fn($n, $v) => "$n {$v[0]} {$v[1]} ns", array_keys($leaves), $leaves)));
};
[$code, , $err] = statq_run(['pprof', '-f', "$dir/weights.jsonl", '-o', "$dir/file.pb.gz"]);
printf("pprof of the file: exit %d, %s\n", $code, $pprof("$dir/file.pb.gz"));

/* the same lines from a stream socket (a real unix socket served here), after stat's status line: its interval is 1000 us */
$status = json_encode(['type' => 'status', 'time' => 1795000000.5, 'elapsed' => 0.3, 'version' => '1.0.0',
    'settings' => ['interval' => 1000, 'clock' => 'wall'], 'counters' => ['samples_written' => 411, 'samples_failed' => 0]]);
@unlink("$dir/stream.sock");
$server = stream_socket_server("unix://$dir/stream.sock", $errno, $errstr);
$statq = new Statq(['pprof', '-s', "$dir/stream.sock", '-o', "$dir/stream.pb.gz"]);
$client = stream_socket_accept($server, STAT_TEST_TIMEOUT);
fwrite($client, "$status\n$text");
fclose($client);
fclose($server);
printf("pprof of the stream: exit %d, %s\n", $statq->wait(), $pprof("$dir/stream.pb.gz"));

/* the greatest weight */
[$code, $out] = statq_run(['fold', '-f', "$dir/max.jsonl"]);
printf("weight 65535: exit %d: %s\n", $code, json_encode(statq_parse_folded($out)));
?>
--EXPECT--
top: exit 0, malformed lines said: 11
top header: samples 400 (weighted 600), malformed 11
top: a         self 300 50.00%, total 300 50.00%
top: b         self 300 50.00%, total 300 50.00%
top: <app.php> self 0 0.00%, total 600 100.00%
fold: exit 0: {"<app.php>;a":300,"<app.php>;b":300}
flame: exit 0, samples 600, root 600, under <app.php>: {"a":[300,300],"b":[300,300]}
speedscope --weights count --merge: exit 0, all processes: a 300 b 300, 0 to 600
speedscope --weights count: exit 0, pid 100: a 150 b 150, 0 to 300; pid 200: a 150 b 150, 0 to 300
speedscope --merge: exit 0, all processes: a 0.300000 b 0.300000, 1.003000 to 1.603000
speedscope --weights time: exit 0, pid 100: a 0.150000 b 0.150000, 1.003000 to 1.303000; pid 200: a 0.150000 b 0.150000, 1.003000 to 1.303000
pprof of the file: exit 0, go tool pprof: exit 0, types samples/count wall/nanoseconds, period 1000000, a 300 300000000 ns, b 300 300000000 ns
pprof of the stream: exit 0, go tool pprof: exit 0, types samples/count wall/nanoseconds, period 1000000, a 300 300000000 ns, b 300 300000000 ns
weight 65535: exit 0: {"<app.php>;d":65535,"<app.php>;e":1}
