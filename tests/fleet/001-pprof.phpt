--TEST--
fleet: statq pprof of a real recording: go tool pprof reads it, its flat and cumulative counts equal the samples', labels, time per sample, gzip input
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['go'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
$file = statq_record_script(statq_hot_script(400), ['stat.interval' => '500', 'stat.stack' => '16']);
[$samples] = stat_test_decode(file_get_contents($file));
$busy = array_filter($samples, fn($s) => statq_expected_frames($s) !== null);
printf("recorded: %s\n", count($busy) >= 100 ? 'yes' : 'no (' . count($busy) . ')');

[$code, $out, $err] = statq_run(['pprof', '-f', $file, '-o', "$dir/profile.pb.gz"]);
printf("pprof: exit %d, stderr empty: %s, gzip: %s\n", $code, $err === '' ? 'yes' : 'no: ' . $err,
    substr((string) file_get_contents("$dir/profile.pb.gz"), 0, 2) === "\x1f\x8b" ? 'yes' : 'no');

/* go tool pprof's own reading: per function, flat = self samples and cum = inclusive samples */
[$code, $out, $err] = fleet_pprof(['-top', '-sample_index=samples', '-nodefraction=0', '-edgefraction=0', "$dir/profile.pb.gz"]);
[$rows, $total] = fleet_parse_pprof_top($out);
/* each sample counted as its weight (a late tick's stands for the intervals it missed) */
printf("go tool pprof -top: exit %d, total = samples: %s\n", $code, $total === statq_weighted($busy) ? 'yes' : "no ($total of " . statq_weighted($busy) . ")\n$out$err");
$expected = statq_expected_top($samples);
printf("flat and cum per function as the samples say: %s\n", $rows === $expected ? 'yes' : 'no');
if ($rows !== $expected) {
    var_dump($rows, $expected);
}
printf("hot_loop is the hottest: %s\n", array_search(max(array_column($rows, 0)), array_column($rows, 0)) === array_search('hot_loop', array_keys($rows)) ? 'yes' : 'no');

/* the time sample type: the median gap of a request times the count (a stat.dump file has no status line) */
[$code, $out] = fleet_pprof(['-raw', "$dir/profile.pb.gz"]);
preg_match('/^Period: (\d+)$/m', $out, $period);
printf("sample types: %s\n", preg_match('/^samples\/count wall\/nanoseconds$/m', $out) ? 'samples/count wall/nanoseconds' : "other:\n$out");
printf("period about the interval (500 us, in ns; a busy machine delays samples): %s\n", isset($period[1]) && $period[1] >= 400000 && $period[1] <= 5000000 ? 'yes' : 'no: ' . ($period[1] ?? 'none'));
$pid = $samples[0]['request']['pid'];
$path = $samples[0]['request']['path'];
printf("labels pid and script: %s\n", str_contains($out, "pid:[$pid]") && str_contains($out, "script:[$path]") ? 'yes' : 'no');
/* go tool pprof -raw writes a location's line as file:line, or file:line:column (Go 1.24, trixie) */
printf("functions with their file: %s\n", preg_match('/ hot_loop ' . preg_quote(realpath($path) ?: $path, '/') . ':\d+(:\d+)? /', $out) ? 'yes' : "no\n$out");

/* the same from a gzip recording, and to stdout */
$gz = gzopen("$dir/recording.jsonl.gz", 'wb');
gzwrite($gz, file_get_contents($file));
gzclose($gz);
[$code, $bytes, $err] = statq_run(['pprof', '-f', "$dir/recording.jsonl.gz"]);
file_put_contents("$dir/stdout.pb", $bytes);
[$code2, $out] = fleet_pprof(['-top', '-sample_index=samples', '-nodefraction=0', '-edgefraction=0', "$dir/stdout.pb"]);
printf("from gzip, to stdout: exit %d, gzip: %s, same counts: %s\n", $code, substr($bytes, 0, 2) === "\x1f\x8b" ? 'yes' : 'no',
    fleet_parse_pprof_top($out)[0] === $rows ? 'yes' : 'no');

/* nothing to profile is an error, and no file is left */
file_put_contents("$dir/empty.jsonl", '');
[$code, $out, $err] = statq_run(['pprof', '-f', "$dir/empty.jsonl", '-o', "$dir/empty.pb.gz"]);
printf("empty input: exit %d, %s, no file: %s\n", $code, trim(str_replace($dir, 'DIR', $err)), file_exists("$dir/empty.pb.gz") ? 'no' : 'yes');
?>
--EXPECT--
recorded: yes
pprof: exit 0, stderr empty: yes, gzip: yes
go tool pprof -top: exit 0, total = samples: yes
flat and cum per function as the samples say: yes
hot_loop is the hottest: yes
sample types: samples/count wall/nanoseconds
period about the interval (500 us, in ns; a busy machine delays samples): yes
labels pid and script: yes
functions with their file: yes
from gzip, to stdout: exit 0, gzip: yes, same counts: yes
empty input: exit 1, statq: pprof: no samples in DIR/empty.jsonl: it is empty, no file: yes
