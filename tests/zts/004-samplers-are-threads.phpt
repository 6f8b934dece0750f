--TEST--
zts: stat.samplers=2 counts request threads, not processes: of four threads of one process in their requests at once, two are sampled and two refused (samplers_active 2 in each; samplers_refused 2); once the two deactivate, the other two activate() and get the places
--SKIPIF--
<?php require __DIR__ . '/zts.inc'; if ($why = stat_zts_unavailable()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/zts.inc';

$dir = stat_test_dir();
$barrier = var_export(__DIR__ . '/zts-barrier.inc', true);
for ($slot = 0; $slot < 4; $slot++) {
    file_put_contents("$dir/t$slot.php", "<?php\nrequire $barrier;\n\$dir = " . var_export($dir, true) . ";\n\$slot = (int) \$argv[1];\n" . '
$r = [];
stat_zts_barrier($dir, "in", $slot, 4);
$r["active"] = stat\sampler\active();
$r["samplers_active"] = stat\counters()["samplers_active"];
stat_zts_barrier($dir, "read", $slot, 4);
if ($r["active"]) {
    $r["deactivate"] = stat\sampler\deactivate();
}
stat_zts_barrier($dir, "freed", $slot, 4);
if (!$r["active"]) {
    $r["activate"] = stat\sampler\activate();
}
stat_zts_barrier($dir, "swapped", $slot, 4);
$r["active_now"] = stat\sampler\active();
$r["samplers_active_now"] = stat\counters()["samplers_active"];
stat_zts_barrier($dir, "done", $slot, 4);
echo json_encode(["slot" => $slot, "generation" => 0, "request" => 0, "r" => $r]) . "\n";
');
}
$last = stat_zts_main_script('last', 'echo json_encode(["last" => stat\counters()]), "\n";');
$host = stat_zts_start(['stat.samplers' => 2, 'stat.stream' => "unix://$dir/s.sock"],
    ['-l' => $last, '-t' => 4, '-g' => 1, '-r' => 1, '-k' => 0], "$dir/t%d.php");
$status = $host->wait(60);

$problems = [];
if ($status !== 0 || trim($host->stderr()) !== '') {
    $problems[] = "the host exited with " . var_export($status, true) . ': ' . $host->stderr();
}
$seen = array_column(stat_zts_seen($host->stdout()), 'r');
$sampled = array_filter($seen, fn($r) => $r['active']);
$refused = array_filter($seen, fn($r) => !$r['active']);
if (count($seen) !== 4 || count($sampled) !== 2) {
    $problems[] = count($seen) . ' threads, ' . count($sampled) . ' sampled';
}
foreach ($sampled as $r) {
    if ($r['deactivate'] !== true || $r['active_now'] !== false) {
        $problems[] = 'a sampled thread: ' . json_encode($r);
    }
}
foreach ($refused as $r) {
    if ($r['activate'] !== true || $r['active_now'] !== true) {
        $problems[] = 'a refused thread: ' . json_encode($r);
    }
}
if (array_unique(array_merge(array_column($seen, 'samplers_active'), array_column($seen, 'samplers_active_now'))) !== [2]) {
    $problems[] = 'samplers_active: ' . json_encode(array_map(fn($r) => [$r['samplers_active'], $r['samplers_active_now']], $seen));
}
preg_match('/^\{"last".*$/m', $host->stdout(), $m);
$counters = json_decode($m[0] ?? 'null', true)['last'] ?? [];
if (($counters['samplers_refused'] ?? -1) !== 2 || ($counters['samplers_started'] ?? -1) !== 5) {
    $problems[] = 'refused ' . json_encode($counters['samplers_refused'] ?? null) . ', started ' . json_encode($counters['samplers_started'] ?? null) . ' (2 and 2 + 2 + the last request)';
}
echo $problems ? implode("\n", $problems) : 'ok: two threads sampled at a time, then the other two', "\n";
?>
--EXPECT--
ok: two threads sampled at a time, then the other two
