--TEST--
client: fuzz of statq's readers (seed from STAT_FUZZ_SEED, always printed), built with ASan and UBSan: 10^5 mutated JSON lines (cut at every position, bytes flipped, NUL, invalid UTF-8, deep nesting, huge numbers, wrong types) 1500 truncated or corrupted gzip files, fake stream sockets for top, fold and status; no crash, no sanitizer report, every malformed line counted, exit status as documented, outputs valid
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason() ?? stat_test_extensions_missing(['zlib'])) die("skip $reason");
if (!getenv('STAT_TEST_HEAVY')) die('skip set STAT_TEST_HEAVY'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
/*
 * STAT_FUZZ_SEED=N replays a run. Each JSON line is classified here with
 * PHP's strict JSON parser (the oracle) into sample, other (a well-formed line
 * of another type), malformed or empty, by the rules statq documents
 * (tools/statq/input/reader.h: strict JSON, as PHP's); statq's counts must
 * be the oracle's exactly.
 */
require __DIR__ . '/client.inc';
require __DIR__ . '/fuzz.inc';

$seed = getenv('STAT_FUZZ_SEED');
$seed = $seed !== false && $seed !== '' ? (int) $seed : random_int(1, PHP_INT_MAX);
echo "seed: $seed (STAT_FUZZ_SEED=$seed replays this run)\n";
mt_srand($seed);
$dir = stat_test_dir();
$statq = fuzz_statq_sanitized("$dir/build");
$base = fuzz_base_lines();

/* 1. JSON lines: files of mutated lines, each read by every file reader, plain and gzip */
$runner = new FuzzRunner($statq, $dir);
$lines = 0;
$files = [];
for ($f = 0; $f < 24; $f++) {
    $text = '';
    for ($i = 0; $i < 4500; $i++) {
        $text .= fuzz_mutated_line($base) . "\n";
    }
    /* now and then the last line has no newline */
    if (mt_rand(0, 1)) {
        $text = substr($text, 0, -1);
    }
    $expect = fuzz_text_count($text);
    $lines += array_sum($expect);
    $files[] = [$text, $expect];
}
/* every cut of some lines (multibyte names among them): each a malformed line, the whole ones samples */
$text = '';
foreach (array_merge(array_slice($base, 0, 4), array_slice($base, -4)) as $line) {
    for ($cut = 1; $cut <= strlen($line); $cut++) {
        $text .= substr($line, 0, $cut) . "\n";
    }
}
$expect = fuzz_text_count($text);
$lines += array_sum($expect);
$files[] = [$text, $expect];
printf("cuts: %d lines, all but the whole ones malformed: %s\n", array_sum($expect), $expect['sample'] === 8 && $expect['other'] === 0 ? 'yes' : json_encode($expect));

$readers = [['top', '--once', '--rows', '0'], ['fold'], ['flame'], ['speedscope'], ['fold', '--group', 'uri', '--idle']];
foreach ($files as $n => [$text, $expect]) {
    $gzip = $n % 3 === 0;
    $weighted = fuzz_text_weighted($text);
    $path = "$dir/lines-$n.jsonl" . ($gzip ? '.gz' : '');
    file_put_contents($path, $gzip ? gzencode($text, mt_rand(1, 9)) : $text);
    foreach ($readers as $args) {
        $runner->add(array_merge($args, ['-f', $path]), null, ['kind' => 'lines', 'expect' => $expect, 'weighted' => $weighted, 'path' => $path, 'args' => $args]);
    }
    /* and through stdin */
    $runner->add(['fold'], $path, ['kind' => 'lines', 'expect' => $expect, 'weighted' => $weighted, 'path' => 'stdin', 'args' => ['fold']]);
}
$problems = [];
$checked = ['lines runs' => 0];
$runner->run(function (array $run) use (&$problems, &$checked) {
    $checked['lines runs']++;
    foreach (fuzz_check_lines($run) as $problem) {
        $problems[] = $problem;
    }
});
printf("JSON lines fed: %d (at least 10^5: %s) in %d files, %d statq runs\n", $lines, $lines >= 100000 ? 'yes' : 'no', count($files), $checked['lines runs']);
printf("lines: no crash, counts exact, exit status and outputs right: %s\n", $problems ? "no (seed $seed):\n" . implode("\n", array_slice($problems, 0, 10)) : 'yes');

/* 2. from a socket: top and fold over a fake stream (a status line, then mutated lines); status given a mutated status line */
$problems = [];
$sessions = 0;
for ($i = 0; $i < 4; $i++) {
    $text = '{"type":"status","time":0}' . "\n";
    for ($j = 0; $j < 3000; $j++) {
        $text .= fuzz_mutated_line($base) . "\n";
    }
    $expect = fuzz_text_count($text);
    $args = $i % 2 ? ['fold', '--idle'] : ['top', '--once', '--rows', '0'];
    $run = fuzz_socket_run($statq, $dir, $args, $text) + ['expect' => $expect];
    $problems = array_merge($problems, fuzz_check_lines($run));
    $sessions++;
}
$status = fuzz_status_line();
for ($i = 0; $i < 120; $i++) {
    $line = $i === 0 ? $status : fuzz_mutated_line([$status]);
    $valid = fuzz_classify($line) !== 'malformed' && (json_decode($line, true)['type'] ?? null) === 'status';
    $run = fuzz_socket_run($statq, $dir, ['status', '--json'], "$line\n" . fuzz_mutated_line($base) . "\n");
    $problems = array_merge($problems, fuzz_check_survival($run));
    if ($run['code'] !== ($valid ? 0 : 1)) {
        $problems[] = "status: exit {$run['code']}, expected " . ($valid ? 0 : 1) . ' for ' . json_encode(bin2hex($line));
    } elseif ($valid && !is_array(json_decode($run['stdout'], true))) {
        $problems[] = 'status --json: not valid JSON: ' . substr($run['stdout'], 0, 300);
    }
    $sessions++;
}
printf("fake stream sockets served: %d (4 of 3000 lines, 120 status lines)\n", $sessions);
printf("socket: no crash, counts exact, status --json valid or exit 1: %s\n", $problems ? "no (seed $seed):\n" . implode("\n", array_slice($problems, 0, 10)) : 'yes');

/* 3. gzip: valid recordings cut at random places, bytes flipped, junk inserted or appended, members mixed */
$problems = [];
$kinds = [];
$good = '';
foreach (array_merge(array_slice($base, 0, 76), array_slice($base, -4)) as $line) {
    $good .= $line . "\n";
}
$gzips = 0;
for ($i = 0; $i < 1500; $i++) {
    [$bytes, $kind, $inflated] = fuzz_gzip_case($good, $base);
    $kinds[$kind] = ($kinds[$kind] ?? 0) + 1;
    $path = "$dir/case-" . ($i % 64) . '.gz';
    $args = [['top', '--once', '--rows', '5'], ['fold'], ['speedscope']][mt_rand(0, 2)];
    $runner->add(array_merge($args, ['-f', $path]), null, ['kind' => 'gzip', 'gzip' => $kind, 'inflated' => $inflated, 'args' => $args, 'path' => $path], [$path, $bytes]);
    $gzips++;
}
$runner->run(function (array $run) use (&$problems) {
    foreach (fuzz_check_gzip($run) as $problem) {
        $problems[] = $problem;
    }
});
ksort($kinds);
printf("gzip inputs fed: %d (%s)\n", $gzips, implode(', ', array_keys($kinds)));
printf("gzip: no crash, exit 0 or 1, cut files read up to the cut, counts exact: %s\n", $problems ? "no (seed $seed):\n" . implode("\n", array_slice($problems, 0, 10)) : 'yes');
?>
--EXPECTF--
seed: %d (STAT_FUZZ_SEED=%d replays this run)
cuts: %d lines, all but the whole ones malformed: yes
JSON lines fed: %d (at least 10^5: yes) in 25 files, 150 statq runs
lines: no crash, counts exact, exit status and outputs right: yes
fake stream sockets served: 124 (4 of 3000 lines, 120 status lines)
socket: no crash, counts exact, status --json valid or exit 1: yes
gzip inputs fed: 1500 (appended, concatenated, corrupted member, cut, flipped, header, inserted)
gzip: no crash, exit 0 or 1, cut files read up to the cut, counts exact: yes
