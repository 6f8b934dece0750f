--TEST--
zts: stat.sampler=pool in a threaded host falls back to a sampler thread per request thread and says so at startup; stat\settings() says "request" and names no pool sampler; every sample still carries its own thread's request and stack, every long request is sampled
--SKIPIF--
<?php require __DIR__ . '/zts.inc'; if ($why = stat_zts_unavailable()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/zts.inc';

$dir = stat_test_dir();
$path = "$dir/s.sock";
[$slots, $generations, $requests, $long] = [2, 2, 10, 5];
$script = stat_zts_scripts($slots, 0.1);
$first = stat_zts_main_script('first', 'echo json_encode(["first" => stat\settings()]), "\n";');
$last = stat_zts_main_script('last', 'echo json_encode(["last" => stat\counters()]), "\n";');
$host = stat_zts_start(['stat.stream' => "unix://$path", 'stat.sampler' => 'pool', 'stat.interval' => 1000, 'stat.samples' => 100000],
    ['-w' => true, '-f' => $first, '-l' => $last, '-t' => $slots, '-g' => $generations, '-r' => $requests, '-k' => $long], $script);
if (!$host->waitFor("host: waiting\n")) {
    echo "the host did not start:\n", $host->stdout(), $host->stderr();
    exit;
}
$stream = new StatStream("unix://$path");
$host->send("go\n");
$status = $host->wait(60);
$stream->readAll(10);
$out = $host->stdout();

$problems = [];
if ($status !== 0) {
    $problems[] = "the host exited with " . var_export($status, true) . ': ' . $host->stderr();
}
/* (the embed SAPI prints startup errors with its output) */
if (!str_contains($host->stdout() . $host->stderr(), 'stat.sampler=pool is for PHP processes, not for a thread-safe (ZTS) PHP; each request thread samples with a thread of its own (stat.sampler=request)')) {
    $problems[] = 'no startup warning: ' . $host->stderr();
}
preg_match('/^\{"first".*$/m', $out, $m);
$settings = json_decode($m[0] ?? 'null', true)['first'] ?? [];
if (($settings['sampler'] ?? '') !== 'request' || isset($settings['pool'])) {
    $problems[] = 'settings: sampler ' . json_encode($settings['sampler'] ?? null) . ', pool ' . json_encode($settings['pool'] ?? null);
}
if (($stream->status['settings']['sampler'] ?? '') !== 'request') {
    $problems[] = 'the status line says sampler ' . json_encode($stream->status['settings']['sampler'] ?? null);
}
$seen = stat_zts_seen($out);
if (count($seen) !== $slots * $generations * $requests || array_filter($seen, fn($r) => $r['active'] !== true)) {
    $problems[] = count($seen) . ' requests printed, each sampled: ' . json_encode(array_column($seen, 'active'));
}
[$wrong, $byUri] = stat_zts_check($stream->samples);
array_push($problems, ...$wrong);
foreach ($seen as $request) {
    $uri = "/s$request[slot]/g$request[generation]/$request[kind]/$request[request]";
    if ($request['kind'] === 'long' && count($byUri[$uri] ?? []) < 10) {
        $problems[] = "$uri has " . count($byUri[$uri] ?? []) . ' samples';
    }
}
preg_match('/^\{"last".*$/m', $out, $m);
$counters = json_decode($m[0] ?? 'null', true)['last'] ?? [];
if (($counters['samplers_started'] ?? -1) !== $slots * $generations * $requests + 2) {
    $problems[] = 'samplers started: ' . json_encode($counters['samplers_started'] ?? null);
}
echo $problems ? implode("\n", $problems) : 'ok: a sampler thread per request thread, said at startup and in the settings', "\n";
?>
--EXPECT--
ok: a sampler thread per request thread, said at startup and in the settings
