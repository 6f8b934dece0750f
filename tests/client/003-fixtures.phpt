--TEST--
client: the committed recordings: fold and top agree with the samples, filters by pid and script, the hot spot first
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

foreach (['shop.jsonl', 'pool.jsonl'] as $name) {
    $file = __DIR__ . "/fixtures/$name";
    [$samples, $lost, $invalid] = stat_test_decode(file_get_contents($file));
    $busy = array_filter($samples, fn($s) => statq_expected_frames($s) !== null);

    [$code, $out, $err] = statq_run(['fold', '-f', $file]);
    $folded = statq_parse_folded($out);
    printf("%s: fold exit %d, sum %s, as documented %s\n", $name, $code,
        array_sum($folded) === statq_weighted($busy) ? 'ok' : 'wrong', $folded === statq_expected_fold($samples) ? 'yes' : 'no');

    [$code, $out, $err] = statq_run(['top', '--once', '--rows', '0', '-f', $file]);
    $rows = statq_parse_top($out);
    $shown = [];
    foreach ($rows as [$self, $selfPercent, $total, $totalPercent, $function]) {
        $shown[$function] = [$self, $total];
        if (abs($selfPercent - 100 * $self / statq_weighted($busy)) > 0.01 || abs($totalPercent - 100 * $total / statq_weighted($busy)) > 0.01) {
            echo "wrong percentage for $function\n";
        }
    }
    printf("%s: top exit %d, counts as documented: %s\n", $name, $code, statq_sorted($shown) === statq_expected_top($samples) ? 'yes' : 'no');
    $selfs = array_column($rows, 0);
    $sorted = $selfs;
    rsort($sorted);
    printf("%s: rows by self: %s\n", $name, $selfs === $sorted ? 'yes' : 'no');
    /* samples as they came, then weighted: what the table adds up */
    preg_match('/samples (\d+) \(weighted (\d+)\), rate ([\d.]+)\/s, lost (\d+), failed (\S+), malformed (\d+)/', $out, $m);
    printf("%s: header samples %s, rate %s, lost %s, malformed %s\n", $name,
        $m[1] == count($busy) && $m[2] == statq_weighted($busy) ? 'ok' : 'wrong', $m[3] > 0 ? 'ok' : 'wrong', $m[4], $m[6]);
}

/* shop.php's known hot spot */
[$code, $out] = statq_run(['top', '--once', '-f', __DIR__ . '/fixtures/shop.jsonl']);
printf("first row: %s\n", statq_parse_top($out)[0][4]);
[$code, $out] = statq_run(['top', '--once', '--sort', 'total', '-f', __DIR__ . '/fixtures/shop.jsonl']);
$rows = statq_parse_top($out);
printf("--sort total: by total: %s\n", $rows[0][2] >= $rows[count($rows) - 1][2] && $rows[0][2] >= $rows[1][2] ? 'yes' : 'no');

/* pool.jsonl: two processes, two scripts */
$file = __DIR__ . '/fixtures/pool.jsonl';
[$samples] = stat_test_decode(file_get_contents($file));
$pids = array_values(array_unique(array_map(fn($s) => $s['request']['pid'], $samples)));
printf("pool pids: %d\n", count($pids));
foreach ($pids as $pid) {
    $mine = array_filter($samples, fn($s) => $s['request']['pid'] === $pid);
    [$code, $out] = statq_run(['fold', '--pid', (string) $pid, '-f', $file]);
    printf("--pid: %s\n", statq_parse_folded($out) === statq_expected_fold($mine) ? 'yes' : 'no');
}
$api = array_filter($samples, fn($s) => str_ends_with($s['request']['path'], '/api.php'));
[$code, $out] = statq_run(['fold', '--script', 'api\.php$', '-f', $file]);
printf("--script: %s\n", statq_parse_folded($out) === statq_expected_fold($api) ? 'yes' : 'no');
[$code, $out] = statq_run(['top', '--once', '--script', 'api\.php$', '-f', $file]);
printf("top --script: api's hot spot first: %s\n", in_array(statq_parse_top($out)[0][4], ['json_encode', 'encode_rows'], true) ? 'yes' : 'no');
preg_match('/filtered out (\d+)/', $out, $m);
printf("filtered out counted: %s\n", (int) $m[1] === count($samples) - count($api) ? 'yes' : 'no');
[$code, $out] = statq_run(['top', '--once', '--uri', 'x', '-f', $file]);
printf("--uri on CLI samples (no URI): %s\n", strpos($out, '(no samples)') !== false && statq_parse_top($out) === [] ? 'nothing' : 'something');
[$code, $out] = statq_run(['fold', '--group', 'pid', '-f', $file]);
$roots = array_unique(array_map(fn($s) => explode(';', $s)[0], array_keys(statq_parse_folded($out))));
sort($roots);
printf("--group pid roots: %s\n", $roots === array_map(fn($p) => "pid $p", $pids) || count($roots) === 2 ? 'one per pid' : implode(',', $roots));
?>
--EXPECT--
shop.jsonl: fold exit 0, sum ok, as documented yes
shop.jsonl: top exit 0, counts as documented: yes
shop.jsonl: rows by self: yes
shop.jsonl: header samples ok, rate ok, lost 0, malformed 0
pool.jsonl: fold exit 0, sum ok, as documented yes
pool.jsonl: top exit 0, counts as documented: yes
pool.jsonl: rows by self: yes
pool.jsonl: header samples ok, rate ok, lost 0, malformed 0
first row: Pricing::discount
--sort total: by total: yes
pool pids: 2
--pid: yes
--pid: yes
--script: yes
top --script: api's hot spot first: yes
filtered out counted: yes
--uri on CLI samples (no URI): nothing
--group pid roots: one per pid
