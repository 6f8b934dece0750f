--TEST--
zts: stat.sampler=pool on the CPU clock counts each PHP thread's own CPU time: in a threaded host, one thread busy for 0.4 s and one busy a tenth of the time (1 ms of work, 9 ms asleep) beside it, each thread's samples weigh its own CPU time in intervals (within 0.5x to 1.6x, as its thread's schedstat says), not its process's (the busy one's time would weigh the other's samples ten times over); every sample its own thread's
--SKIPIF--
<?php require __DIR__ . '/zts.inc'; if ($why = stat_zts_unavailable()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/zts.inc';

$dir = stat_test_dir();
$path = "$dir/s.sock";
/* slot 0 busy, slot 1 a tenth of the time; each prints its thread's CPU time (ns, schedstat's first field) */
foreach ([0 => '$busy = 1.0;', 1 => '$busy = 0.1;'] as $slot => $duty) {
    file_put_contents("$dir/t$slot.php", <<<PHP
<?php
function s{$slot}_short(float \$seconds)
{
    \$until = microtime(true) + \$seconds;
    \$x = 0;
    while (microtime(true) < \$until) {
        for (\$i = 0; \$i < 200; \$i++) {
            \$x += \$i % 7;
        }
    }
    return \$x;
}
function s{$slot}_long(float \$seconds)
{
    $duty
    \$until = microtime(true) + \$seconds;
    while (microtime(true) < \$until) {
        s{$slot}_short(\$busy >= 1.0 ? \$seconds : 0.001);
        if (\$busy < 1.0) {
            usleep(9000);
        }
    }
}
[, \$slot, \$generation, \$request, \$kind] = \$argv;
\$cpu = fn() => (int) explode(' ', (string) file_get_contents('/proc/thread-self/schedstat'))[0];
\$from = \$cpu();
s{$slot}_long(0.4);
\$seen = ['slot' => (int) \$slot, 'generation' => 0, 'request' => (int) \$request, 'cpu' => \$cpu() - \$from,
    'active' => stat\\sampler\\active()];
echo json_encode(\$seen) . "\\n";

PHP);
}
$host = stat_zts_start(['stat.stream' => "unix://$path", 'stat.sampler' => 'pool', 'stat.clock' => 'cpu', 'stat.interval' => 1000,
    'stat.samples' => 100000], ['-w' => true, '-t' => 2, '-g' => 1, '-r' => 1, '-k' => 1], "$dir/t%d.php");
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
if (($stream->status['settings']['sampler'] ?? '') !== 'pool') {
    $problems[] = 'the status line says sampler ' . json_encode($stream->status['settings']['sampler'] ?? null);
}
$seen = stat_zts_seen($host->stdout());
[$wrong, $byUri] = stat_zts_check($stream->samples);
array_push($problems, ...$wrong);
$measured = [];
foreach ([0, 1] as $slot) {
    $request = $seen["$slot/0/0"] ?? [];
    $samples = $byUri["/s$slot/g0/long/0"] ?? [];
    $weight = array_sum(array_map(fn($s) => $s['weight'] ?? 1, $samples));
    $ms = ($request['cpu'] ?? 0) / 1e6;
    $measured[$slot] = sprintf('thread %d: %.0f ms of CPU, %d samples weighing %d', $slot, $ms, count($samples), $weight);
    if (($request['active'] ?? false) !== true || $ms <= 0 || $weight < 0.5 * $ms || $weight > 1.6 * $ms
        || array_filter($samples, fn($s) => ($s['clock'] ?? '') !== 'cpu')) {
        $problems[] = $measured[$slot];
    }
}
if (getenv('STAT_TEST_VERBOSE')) {
    fwrite(STDERR, implode("; ", $measured) . "\n");
}
echo $problems ? implode("\n", $problems) : 'ok: each thread sampled on its own CPU time', "\n";
?>
--EXPECT--
ok: each thread sampled on its own CPU time
