--TEST--
pool faults: workers recycled by pm.max_requests under parallel load, then a graceful reload (SIGUSR2) in the middle of a batch: the pool keeps serving, the reader stays connected through the recycling and gets a clean end at the reload, a new listener serves the new generation, no sampler place leaks, no zombie; stopped, nothing is left
--SKIPIF--
<?php require __DIR__ . '/faults.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/faults.inc';

/*
 * What happens, decided here: recycling is invisible to readers (the
 * listener outlives every worker); a reload starts a new generation with a
 * listener of its own on the same socket path, the old listener gives its
 * clients what is left and ends their stream, and a request caught by the
 * reload may be answered 502 by nginx, never hang.
 */
$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '4', 'pm.max_requests' => '5'], ['stat.samplers' => '4', 'stat.interval' => '500']);
stat_faults_scripts($pool);
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);
$master = $pool->masterPid();
$seen = array_merge([$master], $pool->workers());
$first = (int) (stat_faults_listener($pool)['pid'] ?? 0);
$seen[] = $first;

/* 1. six batches of 16 parallel requests: every worker ends after 5 and is replaced */
$statuses = [];
$served = [];
$pump = function () use ($stream, $pool, &$seen) {
    $stream->pump();
    $seen = array_merge($seen, $pool->workers());
};
for ($round = 0; $round < 6; $round++) {
    $requests = [];
    for ($i = 0; $i < 16; $i++) {
        $requests[] = ['GET', "/work.php?recycle=$round&i=$i"];
    }
    foreach (stat_pool_http($pool->port, $requests, 4, $pump, 60.0, [$stream->socket]) as [$status, $body]) {
        $statuses[$status] = ($statuses[$status] ?? 0) + 1;
        if ($status === 200) {
            $served[(int) $body] = true;
        }
    }
}
printf("recycling: every request answered 200: %s, served by 12 or more workers in turn: %s\n",
    $statuses === [200 => 96] ? 'yes' : json_encode($statuses), count($served) >= 12 ? 'yes' : count($served));
printf("no zombie child of the master: %s\n", stat_pool_until(fn() => stat_faults_zombies([$master]) === [], 10.0) ? 'yes' : json_encode(stat_faults_zombies([$master])));
printf("the reader stayed connected, samples of the recycled workers: %s\n",
    $stream->readUntil(fn($s) => count(array_intersect($s->pids(), array_keys($served))) >= 12, 15.0) && !$stream->eof ? 'yes' : 'no: ' . count($stream->pids()));
[[$status, $body]] = stat_pool_http($pool->port, [['GET', '/counters.php?alone=1']], 1, [$stream, 'pump']);
$counters = json_decode($body, true);
printf("samplers running when idle (but for the one asking): %s, refused: %s\n", json_encode($counters['samplers_active'] ?? null), json_encode($counters['samplers_refused'] ?? null));
printf("same listener: %s\n", (int) (stat_faults_listener($pool)['pid'] ?? 0) === $first ? 'yes' : 'no');

/* 2. a reload in the middle of a batch */
$before = $pool->workers();
$seen = array_merge($seen, $before);
$start = microtime(true);
$reloaded = false;
$pump = function () use ($stream, $master, $start, &$reloaded) {
    $stream->pump();
    if (!$reloaded && microtime(true) - $start > 0.1) {
        stat_pool_kill($master, SIGUSR2);
        $reloaded = true;
    }
};
$statuses = [];
$requests = [];
for ($i = 0; $i < 16; $i++) {
    $requests[] = ['GET', "/work.php?reload=$i"];
}
foreach (stat_pool_http($pool->port, $requests, 4, $pump, 60.0, [$stream->socket]) as [$status]) {
    $statuses[$status] = ($statuses[$status] ?? 0) + 1;
}
printf("answers across the reload: %s\n", array_diff(array_keys($statuses), [200, 502]) === [] && ($statuses[200] ?? 0) > 0 ? '200 or 502' : json_encode($statuses));
$after = stat_pool_until(function () use ($pool, $before) {
    $workers = $pool->workers();
    return count($workers) === 4 && array_intersect($workers, $before) === [] ? $workers : null;
}, 20.0);
printf("a new generation of workers, same master: %s\n", $after && $pool->masterPid() === $master ? 'yes' : 'no');
$seen = array_merge($seen, $after ?: []);
printf("the old reader gets a clean end: %s\n", $stream->readAll(15.0) && $stream->rest() === '' && !$stream->invalid ? 'yes' : 'no');
$second = stat_pool_until(function () use ($pool, $first) {
    $listener = stat_faults_listener($pool);
    return ($listener['state'] ?? '') === 'serving' && (int) $listener['pid'] !== $first ? (int) $listener['pid'] : null;
}, 15.0);
printf("a new listener serves: %s\n", $second ? 'yes' : json_encode(stat_faults_listener($pool)));
$seen[] = (int) $second;
printf("the old listener is gone, not a zombie: %s\n", stat_faults_wait_reaped([$first]) === [] ? 'yes' : json_encode(stat_faults_proc($first)));

$again = new StatPoolStream($pool->stream, 10.0);
$after = stat_pool_http($pool->port, array_fill(0, 12, ['GET', '/work.php?after-reload=1']), 4, [$again, 'pump'], 60.0, [$again->socket]);
printf("then every request answered 200: %s\n", count(array_filter($after, fn($r) => $r[0] === 200)) === 12 ? 'yes' : json_encode(array_column($after, 0)));
printf("a new reader gets the new generation's samples: %s\n", $again->readUntil(fn($s) => $s->forUri('/work.php?after-reload=1'), 15.0) ? 'yes' : 'no');
[[$status, $body]] = stat_pool_http($pool->port, [['GET', '/counters.php?alone=2']], 1, [$again, 'pump']);
$counters = json_decode($body, true);
printf("samplers running when idle after the reload: %s, refused: %s\n", json_encode($counters['samplers_active'] ?? null), json_encode($counters['samplers_refused'] ?? null));
$seen = array_merge($seen, $pool->workers());

/* 3. stopped: nothing left */
stat_faults_stop($pool, $seen, $again);
?>
--EXPECT--
bool(true)
recycling: every request answered 200: yes, served by 12 or more workers in turn: yes
no zombie child of the master: yes
the reader stayed connected, samples of the recycled workers: yes
samplers running when idle (but for the one asking): 1, refused: 0
same listener: yes
answers across the reload: 200 or 502
a new generation of workers, same master: yes
the old reader gets a clean end: yes
a new listener serves: yes
the old listener is gone, not a zombie: yes
then every request answered 200: yes
a new reader gets the new generation's samples: yes
samplers running when idle after the reload: 1, refused: 0
php-fpm stopped: yes
the reader gets a clean end: yes
every process gone, none a zombie: yes
stream socket removed: yes
no socket left in the kernel: yes
