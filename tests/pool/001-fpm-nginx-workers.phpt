--TEST--
pool: php-fpm -F (4 static workers) behind nginx: one stream client sees every worker, with the real method, URI and script
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '4']);
$pool->script('work.php', stat_pool_busy(0.3, 'echo getmypid(), " ", $_SERVER["REQUEST_METHOD"], " ", $_SERVER["REQUEST_URI"];'));
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);

/* four at once: each worker is busy for 0.3 s, so nginx's connections spread over the workers */
$requests = [];
for ($i = 0; $i < 8; $i++) {
    $requests[] = $i % 4 === 3 ? ['POST', "/work.php?i=$i", "a=$i"] : ['GET', "/work.php?i=$i"];
}
$responses = stat_pool_http($pool->port, $requests, 4, [$stream, 'pump']);
$served = [];
$bad = [];
foreach ($responses as $i => [$status, $body]) {
    [$pid, $method, $uri] = explode(' ', $body) + [null, null, null];
    if ($status !== 200 || $method !== $requests[$i][0] || $uri !== $requests[$i][1]) {
        $bad[] = "$i: $status $body";
    }
    $served[(int) $pid][] = $i;
}
var_dump($bad);
printf("several workers served: %s\n", count($served) >= 2 ? 'yes' : 'no (' . count($served) . ')');

/* every request shows up on the one stream, from the worker that served it */
$workers = $pool->workers();
$ok = $stream->readUntil(function ($s) use ($requests) {
    foreach ($requests as [$method, $uri]) {
        if (!$s->forUri($uri)) {
            return false;
        }
    }
    return true;
});
var_dump($ok);
$wrong = [];
foreach ($requests as $i => [$method, $uri]) {
    foreach ($stream->forUri($uri) as $sample) {
        $r = $sample['request'];
        if (!in_array($i, $served[$r['pid']] ?? [], true)) {
            $wrong[] = "$uri sampled in pid {$r['pid']}";
        }
        if (($r['method'] ?? null) !== $method) {
            $wrong[] = "$uri method " . ($r['method'] ?? '-');
        }
        if (($r['path'] ?? null) !== "$pool->docroot/work.php") {
            $wrong[] = "$uri path " . ($r['path'] ?? '-');
        }
    }
}
var_dump(array_unique($wrong));
$pids = $stream->pids();
printf("samples from every serving worker: %s\n", $pids == array_keys($served) || array_diff(array_keys($served), $pids) === [] ? 'yes' : 'no');
printf("samples only from fpm workers: %s\n", array_diff($pids, $workers) === [] ? 'yes' : 'no (' . implode(',', $pids) . ' vs ' . implode(',', $workers) . ')');
printf("pool_busy sampled: %s\n", in_array('pool_busy', array_map('stat_test_symbol', $stream->samples), true) ? 'yes' : 'no');
var_dump($stream->invalid, $stream->lost);

/* stopping php-fpm gracefully: the listener goes with it and the client sees EOF */
stat_pool_kill($pool->masterPid(), SIGQUIT);
var_dump($stream->readAll(10.0));
printf("no php-fpm or listener left: %s\n", stat_pool_until(fn() => array_filter(StatPoolProcesses::mine(), fn($pid) => $pid !== proc_get_status($pool->nginx)['pid']) === [], 10.0) ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
array(0) {
}
several workers served: yes
bool(true)
array(0) {
}
samples from every serving worker: yes
samples only from fpm workers: yes
pool_busy sampled: yes
array(0) {
}
array(0) {
}
bool(true)
no php-fpm or listener left: yes
