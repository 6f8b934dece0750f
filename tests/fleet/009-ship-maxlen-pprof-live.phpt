--TEST--
fleet: ship --maxlen trims the Redis stream to about N entries, keeping the newest, and labels entries with this host's name by default; statq pprof from a live stream (-s) of php-cgi on the CPU clock: cpu/nanoseconds, the uri and method labels, counts equal to a direct reader's
--SKIPIF--
<?php
require __DIR__ . '/../pool/pool.inc';
require __DIR__ . '/fleet.inc';
if ($reason = fleet_skip_reason(['redis-server', 'go'])) die("skip $reason");
if ($why = stat_pool_skip(['cgi'])) die("skip $why");
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../pool/pool.inc';
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
statq_binary();

/* --- ship --maxlen: one sample an entry, the stream trimmed as it grows ---------- */
$redis = new FleetRedis();
/* Redis trims ~ by whole nodes of the stream's radix tree: nodes of 10 entries make "about 10" at most 19 */
var_dump($redis->cmd(['CONFIG', 'SET', 'stream-node-max-entries', '10']));
$file = statq_record_script(statq_hot_script(300), ['stat.interval' => '500', 'stat.stack' => '8']);
[$recorded] = stat_test_decode(file_get_contents($file));
[$code, $out, $err] = statq_run(['ship', '-f', $file, '--redis', $redis->url(), '--stream', 'stat:trim', '--batch', '1',
    '--maxlen', '10', '--plain']);
preg_match('/ship: (\d+) samples read, (\d+) shipped in (\d+) entries/', $err, $m);
printf("ship: exit %d, shipped every sample, one an entry: %s\n", $code,
    isset($m[1]) && (int) $m[1] === count($recorded) && $m[2] === $m[1] && $m[3] === $m[1] && count($recorded) >= 100 ? 'yes' : "no: $err");
$length = $redis->cmd(['XLEN', 'stat:trim']);
printf("stream length about 10 (10 to 19): %s\n", $length >= 10 && $length <= 19 ? 'yes' : "no: $length");
$entries = $redis->entries('stat:trim');
$last = end($entries);
printf("the newest kept: %s\n", json_decode(fleet_entry_lines($last)[0], true) == end($recorded) ? 'yes' : 'no');
$host = gethostname();
$labels = array_values(array_unique(array_map(fn($fields) => $fields['host'] . '/' . $fields['pool'], $entries)));
printf("host and pool labels default to this host's name: %s\n", $labels === ["$host/$host"] ? 'yes' : 'no: ' . implode(' ', $labels));

/* --- pprof -s: a php-cgi request on the CPU clock, read live -------------------- */
$script = "$dir/checkout.php";
/*
 * It works only once both readers are connected (3 stream clients accepted: the probe below, record and pprof), at most
 * 20 s: the readers' start is not raced against the request's end (a reader started after it cannot connect at all)
 */
file_put_contents($script, "<?php\n\$until = microtime(true) + 20;\n"
    . "while (stat\\counters()['clients_total'] < 3 && microtime(true) < \$until) { usleep(1000); }\n?>" . stat_pool_busy(1.0));
$ini = stat_pool_ini(['stat.stream' => "unix://$dir/cgi.sock", 'stat.clock' => 'cpu', 'stat.interval' => '1000', 'stat.stack' => '16'], 'cgi.ini');
$env = ['PATH' => '/usr/bin:/bin', 'PHP_INI_SCAN_DIR' => '', 'REDIRECT_STATUS' => '200', 'REQUEST_METHOD' => 'POST',
    'SCRIPT_FILENAME' => $script, 'SCRIPT_NAME' => '/checkout.php', 'REQUEST_URI' => '/checkout?cart=7', 'QUERY_STRING' => 'cart=7',
    'CONTENT_LENGTH' => '0'];
$cgi = proc_open([stat_pool_binary('cgi'), '-c', $ini], [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/cgi.out", 'w'],
    2 => ['file', "$dir/cgi.out", 'a']], $pipes, $dir, $env + stat_pool_sanitizer_env());
StatPoolProcesses::$handles[] = $cgi;
/* cgi.sock exists from bind(), before php-cgi listens on it (a connect in between is refused): ready when it accepts one */
$probe = stat_test_connect("$dir/cgi.sock");
var_dump(is_resource($probe));
fclose($probe);
/* both from the start of the ring (--backlog), until the stream ends with php-cgi */
$direct = new Statq(['record', '-s', "$dir/cgi.sock", '--backlog', '-o', "$dir/direct.jsonl"]);
$pprof = new Statq(['pprof', '-s', "$dir/cgi.sock", '--backlog', '-o', "$dir/live.pb.gz"]);
[$recordCode, $pprofCode] = [$direct->wait(), $pprof->wait()];
printf("record: exit %d; pprof: exit %d\n", $recordCode, $pprofCode);
if ($recordCode !== 0 || $pprofCode !== 0) {
    echo "record: {$direct->stderr()}pprof: {$pprof->stderr()}php-cgi: ", @file_get_contents("$dir/cgi.out"), "\n";
}
[$samples] = stat_test_decode(file_get_contents("$dir/direct.jsonl"));
$busy = array_filter($samples, fn($s) => statq_expected_frames($s) !== null);
printf("samples on the cpu clock: %s\n", count($busy) >= 30 && !array_filter($busy, fn($s) => ($s['clock'] ?? '') !== 'cpu') ? 'yes' : 'no');

[$code, $out, $err] = fleet_pprof(['-top', '-sample_index=samples', '-nodefraction=0', '-edgefraction=0', "$dir/live.pb.gz"]);
[$rows, $total] = fleet_parse_pprof_top($out);
$expected = statq_expected_top($samples);
printf("go tool pprof -top: exit %d, total = the direct reader's samples: %s, per function the same: %s\n", $code,
    $total === statq_weighted($busy) ? 'yes' : "no ($total of " . statq_weighted($busy) . ")", $rows === $expected ? 'yes' : 'no');
if ($rows !== $expected) {
    echo "pprof's rows: ", json_encode($rows), "\nthe direct reader's: ", json_encode($expected), "\nrecord: {$direct->stderr()}pprof: {$pprof->stderr()}\n";
}
[$code, $out] = fleet_pprof(['-raw', "$dir/live.pb.gz"]);
printf("sample types: %s\n", preg_match('/^samples\/count cpu\/nanoseconds$/m', $out) ? 'samples/count cpu/nanoseconds' : "other:\n$out");
printf("labels uri and method: %s\n", str_contains($out, 'uri:[/checkout?cart=7]') && str_contains($out, 'method:[POST]') ? 'yes' : "no\n$out");
?>
--EXPECT--
string(2) "OK"
ship: exit 0, shipped every sample, one an entry: yes
stream length about 10 (10 to 19): yes
the newest kept: yes
host and pool labels default to this host's name: yes
bool(true)
record: exit 0; pprof: exit 0
samples on the cpu clock: yes
go tool pprof -top: exit 0, total = the direct reader's samples: yes, per function the same: yes
sample types: samples/count cpu/nanoseconds
labels uri and method: yes
