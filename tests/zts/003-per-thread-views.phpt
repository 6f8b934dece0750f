--TEST--
zts: each PHP thread's sampler is its own: in two threads' requests at once, deactivate() in one stops its samples only (active() false there, true in the other, which goes on being sampled meanwhile; a second deactivate() is false), activate() starts it again (a second is false) with the same request; stat\counters()' samplers_active counts the threads sampled (2, then 1); stat\settings() is the same in both
--SKIPIF--
<?php require __DIR__ . '/zts.inc'; if ($why = stat_zts_unavailable()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/zts.inc';

$dir = stat_test_dir();
$path = "$dir/s.sock";
$barrier = var_export(__DIR__ . '/zts-barrier.inc', true);
$spin = 'function s%d_short(float $seconds) { $until = microtime(true) + $seconds; $x = 0; while (microtime(true) < $until) { for ($i = 0; $i < 1000; $i++) { $x += $i %% 7; } } return $x; }';
$wait = 'function wait_for(string $file) { $deadline = microtime(true) + 30; while (!file_exists($file) && microtime(true) < $deadline) { usleep(1000); /* polling a file with a deadline */ } }';
$common = "<?php\nrequire $barrier;\n$wait\n\$dir = " . var_export($dir, true) . ";\n\$r = [];\n"
    . "stat_zts_barrier(\$dir, 'in', \$argv[1], 2);\n"
    . "\$r['active'] = stat\\sampler\\active();\n\$r['samplers_active'] = stat\\counters()['samplers_active'];\n"
    . "\$r['settings'] = stat\\settings();\nunset(\$r['settings']['listener']['state']);\n"
    . "stat_zts_barrier(\$dir, 'read', \$argv[1], 2);\n";
file_put_contents("$dir/t0.php", $common . sprintf($spin, 0) . '
$r["deactivate"] = stat\sampler\deactivate();
$r["off_at"] = stat\elapsed();
$r["active_off"] = stat\sampler\active();
$r["deactivate_again"] = stat\sampler\deactivate();
touch("$dir/off");
wait_for("$dir/checked");
$r["on_at"] = stat\elapsed();
$r["activate"] = stat\sampler\activate();
$r["active_on"] = stat\sampler\active();
$r["activate_again"] = stat\sampler\activate();
s0_short(0.1);
echo json_encode(["slot" => 0, "generation" => 0, "request" => 0, "r" => $r]) . "\n";
');
file_put_contents("$dir/t1.php", $common . sprintf($spin, 1) . '
wait_for("$dir/off");
$r["active_other_off"] = stat\sampler\active();
$r["samplers_active_other_off"] = stat\counters()["samplers_active"];
$r["from"] = stat\elapsed();
s1_short(0.1);
$r["to"] = stat\elapsed();
touch("$dir/checked");
echo json_encode(["slot" => 1, "generation" => 0, "request" => 0, "r" => $r]) . "\n";
');
$host = stat_zts_start(['stat.stream' => "unix://$path", 'stat.interval' => 1000, 'stat.samples' => 100000],
    ['-w' => true, '-t' => 2, '-g' => 1, '-r' => 1, '-k' => 0], "$dir/t%d.php");
if (!$host->waitFor("host: waiting\n")) {
    echo "the host did not start:\n", $host->stdout(), $host->stderr();
    exit;
}
$stream = new StatStream("unix://$path");
$host->send("go\n");
$status = stat_zts_wait($host, $stream, 60);
$stream->readAll(10);

$problems = [];
if ($status !== 0 || trim($host->stderr()) !== '') {
    $problems[] = "the host exited with " . var_export($status, true) . ': ' . $host->stderr();
}
$seen = stat_zts_seen($host->stdout());
$t0 = $seen['0/0/0']['r'] ?? [];
$t1 = $seen['1/0/0']['r'] ?? [];
$expect = [
    [$t0, ['active' => true, 'samplers_active' => 2, 'deactivate' => true, 'active_off' => false, 'deactivate_again' => false,
        'activate' => true, 'active_on' => true, 'activate_again' => false]],
    [$t1, ['active' => true, 'samplers_active' => 2, 'active_other_off' => true, 'samplers_active_other_off' => 1]],
];
foreach ($expect as $i => [$got, $want]) {
    foreach ($want as $key => $value) {
        if (($got[$key] ?? null) !== $value) {
            $problems[] = "thread $i: $key is " . json_encode($got[$key] ?? null) . ', not ' . json_encode($value);
        }
    }
}
if (!isset($t0['settings'], $t1['settings']) || $t0['settings'] !== $t1['settings']) {
    $problems[] = 'the settings differ: ' . json_encode($t0['settings'] ?? null) . ' / ' . json_encode($t1['settings'] ?? null);
}
[$wrong, $byUri] = stat_zts_check($stream->samples, [__DIR__ . '/zts-barrier.inc']);
array_push($problems, ...$wrong);
$count = fn(string $uri, float $from, float $to) => count(array_filter($byUri[$uri] ?? [], fn($s) => $s['elapsed'] > $from && $s['elapsed'] < $to));
$off = $count('/s0/g0/short/0', $t0['off_at'] ?? 0, $t0['on_at'] ?? 0);
$other = $count('/s1/g0/short/0', $t1['from'] ?? 0, $t1['to'] ?? 0);
$again = $count('/s0/g0/short/0', $t0['on_at'] ?? 0, PHP_INT_MAX);
if ($off !== 0 || $other < 10 || $again < 10) {
    $problems[] = "samples of the thread while off: $off, of the other meanwhile: $other, of the first once on again: $again";
}
echo $problems ? implode("\n", $problems) : 'ok: each thread activates and deactivates its own sampler', "\n";
?>
--EXPECT--
ok: each thread activates and deactivates its own sampler
