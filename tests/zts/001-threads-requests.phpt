--TEST--
zts: a threaded host (4 slots of 3 PHP threads started and ended in turn, 30 requests each, every 10th a long one) sampled at 500 us: every sample carries its own thread's request (script, URI, method) and stack, every long request is sampled, every request saw itself sampled and the one listener; samplers started = requests, samples received + lost = samples written; no thread of an ended PHP thread is left; shutdown is clean and prompt, and the listener ends with it
--SKIPIF--
<?php require __DIR__ . '/zts.inc'; if ($why = stat_zts_unavailable()) die("skip $why"); ?>
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/zts.inc';

$dir = stat_test_dir();
$path = "$dir/s.sock";
[$slots, $generations, $requests, $long] = [4, 3, 30, 10];
$script = stat_zts_scripts($slots);
$first = stat_zts_main_script('first', 'echo json_encode(["first" => stat\settings(), "counters" => stat\counters()]), "\n";');
$last = stat_zts_main_script('last', 'echo json_encode(["last" => stat\settings(), "counters" => stat\counters()]), "\n";');
$host = stat_zts_start(['stat.stream' => "unix://$path", 'stat.interval' => 500, 'stat.samples' => 200000],
    ['-w' => true, '-f' => $first, '-l' => $last, '-t' => $slots, '-g' => $generations, '-r' => $requests, '-k' => $long], $script);
if (!$host->waitFor("host: waiting\n")) {
    echo "the host did not start:\n", $host->stdout(), $host->stderr();
    exit;
}
$stream = new StatStream("unix://$path");
$host->send("go\n");
$status = stat_zts_wait($host, $stream, 120);
$ended = microtime(true);
$eof = $stream->readAll(10);
$out = $host->stdout();

$problems = [];
if ($status !== 0) {
    $problems[] = "the host exited with " . var_export($status, true);
}
if (trim($host->stderr()) !== '' || preg_match('/^(PHP )?(Warning|Fatal error|Notice|Deprecated)\b.*$/mi', $out, $m)) {
    $problems[] = "the host said: " . trim($host->stderr() . ($m[0] ?? ''));
}
preg_match('/^\{"first".*$/m', $out, $m);
$firstSeen = json_decode($m[0] ?? 'null', true);
preg_match('/^\{"last".*$/m', $out, $m);
$lastSeen = json_decode($m[0] ?? 'null', true);
$listener = $firstSeen['first']['listener']['pid'] ?? 0;
if (!$listener || ($firstSeen['first']['listener']['state'] ?? '') !== 'serving') {
    $problems[] = 'no listener serving at the first request';
}

/* each request: it ran, saw itself sampled, and the same listener and stream */
$seen = stat_zts_seen($out);
$expected = $slots * $generations * $requests;
if (count($seen) !== $expected) {
    $problems[] = count($seen) . " requests printed, $expected expected";
}
foreach ($seen as $key => $request) {
    if ($request['active'] !== true || $request['listener'] !== $listener || $request['stream'] !== "unix://$path") {
        $problems[] = "request $key saw " . json_encode($request);
    }
}

/* every sample: its own thread's request and stack */
[$wrong, $byUri] = stat_zts_check($stream->samples);
array_push($problems, ...$wrong);
$longs = 0;
for ($slot = 0; $slot < $slots; $slot++) {
    for ($generation = 0; $generation < $generations; $generation++) {
        for ($request = $long - 1; $request < $requests; $request += $long) {
            $longs++;
            if (count($byUri["/s$slot/g$generation/long/$request"] ?? []) < 10) {
                $problems[] = "/s$slot/g$generation/long/$request has " . count($byUri["/s$slot/g$generation/long/$request"] ?? []) . " samples";
            }
        }
    }
}

/* the counters add up */
$counters = $lastSeen['counters'] ?? [];
$lost = array_sum(array_column($stream->lost, 'count'));
if (($counters['samplers_started'] ?? -1) !== $expected + 2) {
    $problems[] = 'samplers started: ' . ($counters['samplers_started'] ?? '?') . ', requests: ' . ($expected + 2);
}
if (($counters['samplers_refused'] ?? -1) !== 0 || ($counters['samplers_stuck'] ?? -1) !== 0 || ($counters['samplers_active'] ?? -1) !== 0) {
    $problems[] = 'samplers refused, stuck, active at the end: ' . json_encode(array_intersect_key($counters, array_flip(['samplers_refused', 'samplers_stuck', 'samplers_active'])));
}
if (count($stream->samples) + $lost !== ($counters['samples_written'] ?? -1)) {
    $problems[] = count($stream->samples) . " samples received + $lost lost, " . ($counters['samples_written'] ?? '?') . ' written';
}
if (!$eof || $stream->invalid || $stream->rest() !== '') {
    $problems[] = 'the stream did not end cleanly (EOF ' . var_export($eof, true) . ', ' . count($stream->invalid) . ' invalid lines)';
}
if (($lastSeen['last']['listener']['pid'] ?? 0) !== $listener) {
    $problems[] = 'another listener at the end: ' . json_encode($lastSeen['last']['listener'] ?? null);
}

/* no thread left of a PHP thread that ended: the main thread and its parked sampler (and TSan's, under it) */
$runtime = stat_zts_runtime_tasks();
if (!preg_match('/^host: threads ended, tasks (\d+)$/m', $out, $m) || (int) $m[1] > 2 + $runtime) {
    $problems[] = 'after the PHP threads ended: ' . ($m[0] ?? 'no line');
}
/* after it, the main thread alone: every sampler thread joined */
if (!preg_match('/^host: shutdown (\d+) ms, tasks (\d+), failures (\d+)$/m', $out, $m) || (int) $m[1] > 2000 || (int) $m[2] !== 1 + $runtime || $m[3] !== '0') {
    $problems[] = 'shutdown: ' . ($m[0] ?? 'no line');
}
if (!stat_test_until(fn() => !file_exists("/proc/$listener"), 5) || !stat_test_wait_gone($path)) {
    $problems[] = 'the listener or its socket outlived the host by 5 s';
}
echo $problems ? implode("\n", $problems) : "ok: $expected requests on " . ($slots * $generations) . " threads, $longs long ones sampled, every sample its own thread's", "\n";
?>
--EXPECT--
ok: 360 requests on 12 threads, 36 long ones sampled, every sample its own thread's
