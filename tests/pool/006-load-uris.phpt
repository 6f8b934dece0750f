--TEST--
pool: 3000 requests with distinct URIs, 16 at a time, on 8 php-fpm workers: every sample carries the URI of the request that was running, never another
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'], true)) die("skip $why"); ?>
--INI--
memory_limit=1024M
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

const REQUESTS = 3000;
$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '8', 'listen.backlog' => '1024'], ['stat.interval' => '100']);
$pool->script('load.php', stat_pool_busy(0.002, 'echo getmypid();'));
$pool->script('last.php', stat_pool_busy(0.3, 'echo getmypid();'));
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);

$requests = [];
$uris = [];
for ($i = 0; $i < REQUESTS; $i++) {
    $uri = "/load.php?n=$i";
    $requests[] = ['GET', $uri];
    $uris[$uri] = $i;
}
$start = microtime(true);
$responses = stat_pool_http($pool->port, $requests, 16, [$stream, 'pump'], 300.0, [$stream->socket]);
$seconds = microtime(true) - $start;
$servedBy = [];
$failed = 0;
foreach ($responses as $i => [$status, $body]) {
    if ($status !== 200 || (int) $body <= 0) {
        $failed++;
        continue;
    }
    $servedBy[$requests[$i][1]] = (int) $body;
}
printf("all %d answered: %s\n", REQUESTS, $failed === 0 ? 'yes' : "no ($failed failed)");

/* a last, longer request: once its samples are here, the ring's earlier samples have been read */
$last = stat_pool_http($pool->port, [['GET', '/last.php?n=last']], 1, [$stream, 'pump'])[0];
var_dump($stream->readUntil(fn($s) => $s->forUri('/last.php?n=last'), 60.0));

$missing = $wrong = $otherPid = 0;
$perRequest = [];
$sampledUris = [];
$examples = [];
foreach ($stream->samples as $sample) {
    $r = $sample['request'];
    if ($r['uri'] === '/last.php?n=last') {
        continue;
    }
    $uri = $r['uri'] ?? null;
    if ($uri === null) {
        $missing++;
        $examples[] = json_encode($r);
        continue;
    }
    if (!isset($uris[$uri])) {
        $wrong++;
        $examples[] = json_encode($r);
        continue;
    }
    if (($servedBy[$uri] ?? null) !== $r['pid']) {
        $otherPid++;
        $examples[] = json_encode($r) . ' served by ' . ($servedBy[$uri] ?? '?');
    }
    $perRequest[$r['pid'] . '/' . $r['elapsed']][$uri] = true;
    $sampledUris[$uri] = true;
}
$mixed = count(array_filter($perRequest, fn($set) => count($set) > 1));
$samples = count($stream->samples);
$report = sprintf("requests %d in %.1f s, samples %d (lost lines %d, lost samples %d), requests sampled %d, distinct pid+request.elapsed %d, missing uri %d, unknown uri %d, uri of another worker %d, requests with two uris %d",
    REQUESTS, $seconds, $samples, count($stream->lost), array_sum(array_column($stream->lost, 'count')), count($sampledUris), count($perRequest), $missing, $wrong, $otherPid, $mixed);
if ($file = getenv('STAT_POOL_REPORT')) {
    file_put_contents($file, $report . "\n" . implode("\n", array_slice($examples, 0, 20)) . "\n", FILE_APPEND);
}
printf("samples with a missing URI: %d\n", $missing);
printf("samples with a URI nobody requested: %d\n", $wrong);
printf("samples from a worker that did not serve that URI: %d\n", $otherPid);
printf("requests (pid + request.elapsed) with two URIs: %d\n", $mixed);
printf("most requests sampled: %s\n", count($sampledUris) >= REQUESTS / 2 ? 'yes' : "no: $report");
printf("all 8 workers sampled: %s\n", count($stream->pids()) === 8 ? 'yes' : 'no');
var_dump($stream->invalid);
?>
--EXPECT--
bool(true)
all 3000 answered: yes
bool(true)
samples with a missing URI: 0
samples with a URI nobody requested: 0
samples from a worker that did not serve that URI: 0
requests (pid + request.elapsed) with two URIs: 0
most requests sampled: yes
all 8 workers sampled: yes
array(0) {
}
