--TEST--
zts: stat's settings are the process's, read once at startup: a PHP thread that starts (PHP runs every INI handler again for it) neither writes them again, which raced with the other threads' requests reading them (ThreadSanitizer saw it), nor warns again about a bad value; 2 slots of 3 threads in turn, with stat.interval and stat.socket_mode invalid: each warning once, and every request sees the values used instead
--SKIPIF--
<?php require __DIR__ . '/zts.inc'; if ($why = stat_zts_unavailable()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/zts.inc';

[$slots, $generations, $requests] = [2, 3, 2];
$script = stat_zts_scripts($slots, 0.05, '$seen["interval"] = stat\settings()["interval"] ?? null;');
$host = stat_zts_start(['stat.interval' => 'often', 'stat.socket_mode' => '999'],
    ['-t' => $slots, '-g' => $generations, '-r' => $requests, '-k' => 0], $script);
$status = $host->wait(60);
$out = $host->stdout() . $host->stderr();

$problems = [];
if ($status !== 0) {
    $problems[] = 'the host exited with ' . var_export($status, true) . ': ' . $host->stderr();
}
foreach (['stat.interval must be an integer', 'stat.socket_mode must be'] as $warning) {
    if (($n = substr_count($out, $warning)) !== 1) {
        $problems[] = "'$warning' said $n times (once expected: at startup)";
    }
}
$seen = stat_zts_seen($host->stdout());
if (count($seen) !== $slots * $generations * $requests) {
    $problems[] = count($seen) . ' requests printed, ' . ($slots * $generations * $requests) . ' expected';
}
foreach ($seen as $key => $request) {
    if ($request['interval'] !== 100) {
        $problems[] = "request $key saw stat.interval " . json_encode($request['interval']);
    }
}
echo $problems ? implode("\n", $problems) . "\n" . $out : 'ok: each warning once, ' . count($seen) . " requests on 6 threads saw 100 us\n";
?>
--EXPECT--
ok: each warning once, 12 requests on 6 threads saw 100 us
