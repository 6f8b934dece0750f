--TEST--
client: --group path (the URI without its query string) and --group script (request.path) beside uri and pid, in fold and flame; a request without a URI is grouped by its script
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$dir = stat_test_dir();
/* the shop recording as if served over HTTP: each sample gets one of five URIs (three paths, two scripts) */
$uris = ['/cart?id=1', '/cart?id=2&x=%3B', '/cart#top', '/api/items?page=3', '/index.php'];
$scripts = ['/cart' => '/srv/www/cart.php', '/api/items' => '/srv/www/api.php', '/index.php' => '/srv/www/cart.php'];
$lines = [];
$samples = [];
foreach (file(__DIR__ . '/fixtures/shop.jsonl', FILE_IGNORE_NEW_LINES) as $i => $line) {
    $sample = json_decode($line, true);
    if ($i % 7 !== 6) {  /* every 7th keeps no URI: a CLI request */
        $uri = $uris[$i % count($uris)];
        $sample['request']['uri'] = $uri;
        $sample['request']['path'] = $scripts[strtok($uri, '?#')];
    }
    $samples[] = $sample;
    $lines[] = json_encode($sample, JSON_UNESCAPED_SLASHES);
}
file_put_contents("$dir/http.jsonl", implode("\n", $lines) . "\n");

/* the roots statq should draw, computed here from the samples */
$expected = ['path' => [], 'script' => [], 'uri' => []];
foreach ($samples as $sample) {
    if (statq_expected_frames($sample) === null) {
        continue;
    }
    $uri = $sample['request']['uri'] ?? null;
    $script = 'script ' . $sample['request']['path'];
    $roots = ['path' => $uri !== null ? 'path ' . preg_replace('/[?#].*$/s', '', $uri) : $script,
        'script' => $script, 'uri' => $uri !== null ? "uri $uri" : $script];
    foreach ($roots as $group => $root) {
        $expected[$group][$root] = ($expected[$group][$root] ?? 0) + statq_weight($sample);
    }
}
foreach (['path', 'script', 'uri'] as $group) {
    [$code, $out, $err] = statq_run(['fold', '--group', $group, '-f', "$dir/http.jsonl"]);
    $roots = [];
    foreach (statq_parse_folded($out) as $stack => $count) {
        $root = strtr(explode(';', $stack)[0], ['%3B' => ';', '%25' => '%', '%0A' => "\n", '%0D' => "\r"]);
        $roots[$root] = ($roots[$root] ?? 0) + $count;
    }
    ksort($roots);
    ksort($expected[$group]);
    printf("fold --group %s: exit %d, roots: %s, as computed: %s\n", $group, $code, implode(' | ', array_keys($roots)),
        $roots === $expected[$group] ? 'yes' : 'no');
}
[$code, $out, $err] = statq_run(['flame', '--group', 'path', '-f', "$dir/http.jsonl"]);
$data = statq_flame_data($out);
printf("flame --group path: exit %d, roots in the names: %s\n", $code,
    count(array_intersect(array_keys($expected['path']), $data['names'])) === count($expected['path']) ? 'yes' : 'no');
[$code, $out, $err] = statq_run(['fold', '--group', 'query', '-f', "$dir/http.jsonl"]);
printf("--group query: exit %d: %s", $code, $err);
?>
--EXPECT--
fold --group path: exit 0, roots: path /api/items | path /cart | path /index.php | script /tmp/statq-fixture/app/shop.php, as computed: yes
fold --group script: exit 0, roots: script /srv/www/api.php | script /srv/www/cart.php | script /tmp/statq-fixture/app/shop.php, as computed: yes
fold --group uri: exit 0, roots: script /tmp/statq-fixture/app/shop.php | uri /api/items?page=3 | uri /cart#top | uri /cart?id=1 | uri /cart?id=2&x=%3B | uri /index.php, as computed: yes
flame --group path: exit 0, roots in the names: yes
--group query: exit 2: statq: --group must be path, script, uri or pid, 'query' given
