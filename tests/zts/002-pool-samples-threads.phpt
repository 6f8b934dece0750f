--TEST--
zts: stat.sampler=pool in a threaded host (4 slots of 3 PHP threads started and ended in turn, 20 requests each, every 5th a long one) samples every PHP thread from the one pool sampler process, at 1 ms: no fallback and no warning, stat\settings() says "pool"; every sample carries its own thread's request (script, URI, method) and stack, every long request is sampled, each request saw itself sampled; samplers started = requests, samples received + lost = samples written; no stat thread in the host process at any request, after its threads ended or after shutdown; the pool sampler lets go of what it held for each ended thread (its places given back)
--SKIPIF--
<?php require __DIR__ . '/zts.inc'; if ($why = stat_zts_unavailable()) die("skip $why"); ?>
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/zts.inc';

$dir = stat_test_dir();
$path = "$dir/s.sock";
[$slots, $generations, $requests, $long] = [4, 3, 20, 5];
/* each request: the threads of its process named stat (a sampler thread's name: "stat sampler") */
$script = stat_zts_scripts($slots, 0.12, '$seen["stat_threads"] = 0;
foreach (glob("/proc/self/task/*/comm") as $comm) {
    $seen["stat_threads"] += str_starts_with((string) @file_get_contents($comm), "stat");
}
$seen["tid"] = (int) @file_get_contents("/proc/thread-self/stat");');
$first = stat_zts_main_script('first', 'echo json_encode(["first" => stat\settings(), "tid" => (int) file_get_contents("/proc/thread-self/stat")]), "\n";');
/*
 * The last request, on the main thread once every other ended: within 10 s
 * the pool sampler holds nothing of another thread of this process any more
 * (its descriptors of /proc/PID/task/TID/..., per place, and the copies of
 * /proc/PID/mem but the main thread's: the places of the ended threads given
 * back, and let go)
 */
$last = stat_zts_main_script('last', '
$pool = stat\settings()["pool"]["pid"] ?? 0;
$main = (int) file_get_contents("/proc/thread-self/stat");
$others = function () use ($pool, $main) {
    $held = [];
    $mems = 0;
    foreach (glob("/proc/$pool/fd/*") as $fd) {
        $link = (string) @readlink($fd);
        if (preg_match("~^/proc/" . getmypid() . "/task/(\d+)/~", $link, $m) && (int) $m[1] !== $main) {
            $held[] = (int) $m[1];
        }
        /* (the memory: one copy a place, so one for the main thread; a copy past it is of an ended thread) */
        if ($link === "/proc/" . getmypid() . "/mem" && ++$mems > 1) {
            $held[] = "mem";
        }
    }
    return $held;
};
$deadline = microtime(true) + 10;
while (($held = $others()) && microtime(true) < $deadline) {
    usleep(10000); /* polling the pool sampler with a deadline */
}
echo json_encode(["last" => stat\counters(), "pool" => $pool, "pool_name" => trim((string) @file_get_contents("/proc/$pool/comm")),
    "held" => $held]), "\n";');
$host = stat_zts_start(['stat.stream' => "unix://$path", 'stat.sampler' => 'pool', 'stat.interval' => 1000, 'stat.samples' => 200000],
    ['-w' => true, '-f' => $first, '-l' => $last, '-t' => $slots, '-g' => $generations, '-r' => $requests, '-k' => $long], $script);
if (!$host->waitFor("host: waiting\n")) {
    echo "the host did not start:\n", $host->stdout(), $host->stderr();
    exit;
}
$stream = new StatStream("unix://$path");
$host->send("go\n");
$status = stat_zts_wait($host, $stream, 120);
$eof = $stream->readAll(10);
$out = $host->stdout();

$problems = [];
if ($status !== 0) {
    $problems[] = "the host exited with " . var_export($status, true);
}
/* (no fallback: nothing said at startup, nor after) */
if (trim($host->stderr()) !== '' || preg_match('/^(PHP )?(Warning|Fatal error|Notice|Deprecated)\b.*$/mi', $out, $m)) {
    $problems[] = "the host said: " . trim($host->stderr() . ($m[0] ?? ''));
}
preg_match('/^\{"first".*$/m', $out, $m);
$firstSeen = json_decode($m[0] ?? 'null', true);
$settings = $firstSeen['first'] ?? [];
$pool = $settings['pool']['pid'] ?? 0;
if (($settings['sampler'] ?? '') !== 'pool' || !$pool) {
    $problems[] = 'settings: sampler ' . json_encode($settings['sampler'] ?? null) . ', pool ' . json_encode($settings['pool'] ?? null);
}
if (($stream->status['settings']['sampler'] ?? '') !== 'pool') {
    $problems[] = 'the status line says sampler ' . json_encode($stream->status['settings']['sampler'] ?? null);
}

/* each request: sampled, on a thread of its own (not the main one), with no stat thread beside it */
$seen = stat_zts_seen($out);
$expected = $slots * $generations * $requests;
if (count($seen) !== $expected) {
    $problems[] = count($seen) . " requests printed, $expected expected";
}
$tids = [];
foreach ($seen as $key => $request) {
    $tids["$request[slot]/$request[generation]"][$request['tid']] = true;
    if ($request['active'] !== true || $request['stat_threads'] !== 0 || $request['tid'] === ($firstSeen['tid'] ?? 0)) {
        $problems[] = "request $key saw " . json_encode($request);
    }
}
if (count($tids) !== $slots * $generations || array_filter($tids, fn($t) => count($t) !== 1)) {
    $problems[] = 'threads: ' . json_encode($tids);
}

/* every sample: its own thread's request and stack; every thread and every long request sampled */
[$wrong, $byUri] = stat_zts_check($stream->samples);
array_push($problems, ...$wrong);
$perThread = [];
foreach ($byUri as $uri => $samples) {
    if (preg_match('~^/s(\d+)/g(\d+)/~', $uri, $u)) {
        $perThread["$u[1]/$u[2]"] = ($perThread["$u[1]/$u[2]"] ?? 0) + count($samples);
    }
}
for ($slot = 0; $slot < $slots; $slot++) {
    for ($generation = 0; $generation < $generations; $generation++) {
        if (($perThread["$slot/$generation"] ?? 0) < 40) {
            $problems[] = "thread $slot/$generation has " . ($perThread["$slot/$generation"] ?? 0) . ' samples';
        }
        for ($request = $long - 1; $request < $requests; $request += $long) {
            $uri = "/s$slot/g$generation/long/$request";
            if (count($byUri[$uri] ?? []) < 10) {
                $problems[] = "$uri has " . count($byUri[$uri] ?? []) . ' samples';
            }
        }
    }
}
if (getenv('STAT_TEST_VERBOSE')) {
    fwrite(STDERR, 'samples per thread: ' . json_encode($perThread) . "\n");
}

/* the counters add up */
preg_match('/^\{"last".*$/m', $out, $m);
$lastSeen = json_decode($m[0] ?? 'null', true);
$counters = $lastSeen['last'] ?? [];
$lost = array_sum(array_column($stream->lost, 'count'));
if (($counters['samplers_started'] ?? -1) !== $expected + 2) {
    $problems[] = 'samplers started: ' . ($counters['samplers_started'] ?? '?') . ', requests: ' . ($expected + 2);
}
if (($counters['samplers_refused'] ?? -1) !== 0 || ($counters['samplers_stuck'] ?? -1) !== 0 || ($counters['samples_unreadable'] ?? -1) !== 0) {
    $problems[] = 'samplers refused, stuck, samples unreadable: ' . json_encode(array_intersect_key($counters, array_flip(['samplers_refused', 'samplers_stuck', 'samples_unreadable'])));
}
if (count($stream->samples) + $lost !== ($counters['samples_written'] ?? -1)) {
    $problems[] = count($stream->samples) . " samples received + $lost lost, " . ($counters['samples_written'] ?? '?') . ' written';
}
if (!$eof || $stream->invalid || $stream->rest() !== '') {
    $problems[] = 'the stream did not end cleanly (EOF ' . var_export($eof, true) . ', ' . count($stream->invalid) . ' invalid lines)';
}

/* the pool sampler: a process of its own, holding nothing of an ended thread */
if (($lastSeen['pool'] ?? 0) !== $pool || ($lastSeen['pool_name'] ?? '') !== 'stat pool') {
    $problems[] = 'the pool sampler at the end: ' . json_encode([$lastSeen['pool'] ?? null, $lastSeen['pool_name'] ?? null]);
}
if (($lastSeen['held'] ?? null) !== []) {
    $problems[] = 'the pool sampler still holds files of ended threads: ' . json_encode($lastSeen['held'] ?? null);
}
/* no thread in the host but its own: the main thread alone once the PHP threads ended, and after shutdown (and TSan's, under it) */
$runtime = stat_zts_runtime_tasks();
if (!preg_match('/^host: threads ended, tasks (\d+)$/m', $out, $m) || (int) $m[1] !== 1 + $runtime) {
    $problems[] = 'after the PHP threads ended: ' . ($m[0] ?? 'no line');
}
if (!preg_match('/^host: shutdown (\d+) ms, tasks (\d+), failures (\d+)$/m', $out, $m) || (int) $m[1] > 2000 || (int) $m[2] !== 1 + $runtime || $m[3] !== '0') {
    $problems[] = 'shutdown: ' . ($m[0] ?? 'no line');
}
if ($pool && !stat_test_until(fn() => !file_exists("/proc/$pool"), 5)) {
    $problems[] = 'the pool sampler outlived the host by 5 s';
}
echo $problems ? implode("\n", $problems) : "ok: $expected requests on " . ($slots * $generations) . " threads sampled by the pool sampler, every sample its own thread's", "\n";
?>
--EXPECT--
ok: 240 requests on 12 threads sampled by the pool sampler, every sample its own thread's
