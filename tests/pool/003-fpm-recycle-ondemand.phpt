--TEST--
pool: pm=ondemand with pm.max_requests=5: samples keep arriving from each new worker pid, also after idle workers are reaped
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$pool = new StatPool(['pm' => 'ondemand', 'pm.max_children' => '2', 'pm.max_requests' => '5',
    'pm.process_idle_timeout' => '1s']);
$pool->script('work.php', stat_pool_busy(0.1, 'echo getmypid();'));
var_dump($pool->ready());
printf("no worker before the first request: %s\n", $pool->workers() === [] ? 'yes' : 'no');
$stream = new StatPoolStream($pool->stream);

function run(StatPool $pool, StatPoolStream $stream, string $tag, int $n): array
{
    $requests = [];
    for ($i = 0; $i < $n; $i++) {
        $requests[] = ['GET', "/work.php?$tag=$i"];
    }
    $responses = stat_pool_http($pool->port, $requests, 2, [$stream, 'pump']);
    $byPid = [];
    foreach ($responses as $i => [$status, $body]) {
        $byPid[$status === 200 ? (int) $body : 0][] = $requests[$i][1];
    }
    /* each worker's requests show up (one short request may go unsampled on a loaded machine) */
    $complete = $stream->readUntil(function ($s) use ($byPid) {
        foreach ($byPid as $pid => $uris) {
            if (!array_filter($uris, fn($uri) => $s->forUri($uri))) {
                return false;
            }
        }
        return true;
    });
    $wrong = [];
    foreach ($byPid as $pid => $uris) {
        foreach ($uris as $uri) {
            foreach ($stream->forUri($uri) as $sample) {
                if ($sample['request']['pid'] !== $pid) {
                    $wrong[] = "$uri served by $pid, sampled in {$sample['request']['pid']}";
                }
            }
        }
    }
    return [$byPid, $complete, $wrong];
}

[$byPid, $complete, $wrong] = run($pool, $stream, 'recycle', 20);
printf("all answered: %s\n", isset($byPid[0]) ? 'no' : 'yes');
printf("every worker sampled: %s\n", $complete ? "yes" : "no");
printf("at least 4 worker pids (5 requests each): %s\n", count($byPid) >= 4 ? 'yes' : 'no (' . count($byPid) . ')');
printf("no worker served more than 5: %s\n", max(array_map('count', $byPid)) <= 5 ? 'yes' : 'no');
var_dump($wrong);

/*
 * ondemand reaps idle workers after 1 s; the next request gets a new process.
 * Reaped means buried by the master too, no zombie of a worker left: until
 * it has waited for them it still counts them, and ondemand forks on a new
 * connection's edge, so a request arriving then would wait for the next
 * connection (php-fpm bug #69724), seen on 8.6 once in some 25 runs.
 */
$master = $pool->masterPid();
printf("idle workers reaped: %s\n", stat_pool_until(fn() => !array_filter(StatPoolProcesses::table(), fn($p) => $p[0] === $master), 15.0) ? 'yes' : 'no');
[$later, $complete, $wrong] = run($pool, $stream, 'later', 2);
printf("new pids after the reap: %s\n", array_intersect(array_keys($later), array_keys($byPid)) === [] ? 'yes' : 'no');
printf("the new workers sampled: %s\n", $complete ? 'yes' : 'no');
var_dump($wrong, $stream->invalid);
?>
--EXPECT--
bool(true)
no worker before the first request: yes
all answered: yes
every worker sampled: yes
at least 4 worker pids (5 requests each): yes
no worker served more than 5: yes
array(0) {
}
idle workers reaped: yes
new pids after the reap: yes
the new workers sampled: yes
array(0) {
}
array(0) {
}
