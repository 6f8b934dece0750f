--TEST--
pool faults: random workers SIGKILLed under parallel load, then the listener SIGSTOPped and SIGCONTed: the pool keeps serving, no place leaks, the stall is visible in stat\settings() and the stream resumes; stopped, the pool leaves no process, zombie, socket or shared memory
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
 * What happens, decided here: a worker killed mid-request loses that request
 * (nginx answers 502) and its sampler place is taken back; a stopped listener
 * blocks nobody (requests are sampled into the ring meanwhile), shows as
 * "stalled" in stat\settings() after 3 s without a round, and serves again
 * when continued: readers then get the samples still in the ring, and a lost
 * line for what the ring no longer held.
 */
$seed = (int) (getenv('STAT_TEST_SEED') ?: random_int(1, PHP_INT_MAX));
mt_srand($seed);
$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '4'], ['stat.samplers' => '4', 'stat.interval' => '500']);
stat_faults_scripts($pool);
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);
$master = $pool->masterPid();
$seen = array_merge([$master], $pool->workers());

/* 1. batches of parallel requests; in each, a random worker is SIGKILLed once the batch runs */
$killed = [];
$statuses = [];
for ($round = 0; $round < 6; $round++) {
    $requests = [];
    for ($i = 0; $i < 16; $i++) {
        $requests[] = ['GET', "/work.php?round=$round&i=$i"];
    }
    $start = microtime(true);
    $done = false;
    $pump = function () use ($stream, $pool, $start, &$done, &$killed, &$seen) {
        $stream->pump();
        if (!$done && microtime(true) - $start > 0.1 && ($workers = $pool->workers())) {
            $victim = $workers[mt_rand(0, count($workers) - 1)];
            $seen = array_merge($seen, $workers);
            stat_pool_kill($victim, SIGKILL);
            $killed[] = $victim;
            $done = true;
        }
    };
    foreach (stat_pool_http($pool->port, $requests, 4, $pump, 60.0, [$stream->socket]) as [$status]) {
        $statuses[$status] = ($statuses[$status] ?? 0) + 1;
    }
}
ksort($statuses);
printf("answers under kills: %s\n", array_diff(array_keys($statuses), [200, 502]) === [] && ($statuses[200] ?? 0) >= 48 ? '200 or 502' : json_encode($statuses) . " (seed $seed)");
printf("6 workers killed: %s\n", count($killed) === 6 ? 'yes' : count($killed));
printf("replaced: %s\n", stat_pool_until(fn() => count($pool->workers()) === 4 && !array_intersect($killed, $pool->workers()), 15.0) ? 'yes' : 'no');
printf("no zombie child of the master: %s\n", stat_pool_until(fn() => stat_faults_zombies([$master]) === [], 10.0) ? 'yes' : json_encode(stat_faults_zombies([$master])));
$seen = array_merge($seen, $pool->workers());
$after = stat_pool_http($pool->port, array_fill(0, 12, ['GET', '/work.php?after-kills=1']), 4, [$stream, 'pump'], 60.0, [$stream->socket]);
printf("then every request answered 200: %s\n", count(array_filter($after, fn($r) => $r[0] === 200)) === 12 ? 'yes' : json_encode(array_column($after, 0)));
/* alone, the request that asks holds the only place: the killed workers' places were taken back */
[[$status, $body]] = stat_pool_http($pool->port, [['GET', '/counters.php?alone=1']], 1, [$stream, 'pump']);
$counters = json_decode($body, true);
printf("samplers running when idle (but for the one asking): %s, refused: %s\n", json_encode($counters['samplers_active'] ?? null), json_encode($counters['samplers_refused'] ?? null));
printf("samples of the later requests: %s\n", $stream->readUntil(fn($s) => $s->forUri('/work.php?after-kills=1') && $s->forUri('/counters.php?alone=1'), 15.0) ? 'yes' : 'no');
$worker = $pool->workers()[0] ?? 0;
printf("stat's memory in a worker: %s mapping; files in /dev/shm: %s\n", stat_faults_mapping($worker, 1 << 20), json_encode(stat_faults_shm_files(array_merge([$master], $pool->workers()))));

/* 2. the listener stopped (SIGSTOP): requests go on, it shows as stalled */
$listener = stat_faults_listener($pool);
$pid = (int) ($listener['pid'] ?? 0);
printf("listener serving: %s\n", ($listener['state'] ?? '') === 'serving' && $pid > 0 ? 'yes' : json_encode($listener));
$seen[] = $pid;
stat_pool_kill($pid, SIGSTOP);
$served = $total = 0;
$state = stat_pool_until(function () use ($pool, &$served, &$total) {
    foreach (stat_pool_http($pool->port, array_fill(0, 4, ['GET', '/work.php?stopped=1']), 4) as [$status]) {
        $total++;
        $served += $status === 200 ? 1 : 0;
    }
    $listener = stat_faults_listener($pool);
    return ($listener['state'] ?? '') === 'stalled' ? 'stalled' : null;
}, 20.0);
printf("state while stopped: %s\n", $state ?: json_encode(stat_faults_listener($pool)));
printf("every request answered while it was stopped: %s\n", $served === $total && $total > 0 ? 'yes' : "$served of $total");

/* continued: it serves again, and the reader that stayed connected gets the new samples */
stat_pool_kill($pid, SIGCONT);
printf("state when continued: %s\n", stat_pool_until(fn() => (stat_faults_listener($pool)['state'] ?? '') === 'serving', 15.0) ? 'serving' : json_encode(stat_faults_listener($pool)));
$resumed = stat_pool_until(function () use ($pool, $stream) {
    stat_pool_http($pool->port, [['GET', '/work.php?continued=1']], 1, [$stream, 'pump'], 30.0, [$stream->socket]);
    return $stream->readUntil(fn($s) => $s->forUri('/work.php?continued=1'), 2.0);
}, 20.0);
printf("samples flow again: %s\n", $resumed ? 'yes' : 'no');
printf("reader: %d invalid lines, at EOF: %s\n", count($stream->invalid), var_export($stream->eof, true));

/* 3. stopped: nothing left */
stat_faults_stop($pool, $seen, $stream);
?>
--EXPECT--
bool(true)
answers under kills: 200 or 502
6 workers killed: yes
replaced: yes
no zombie child of the master: yes
then every request answered 200: yes
samplers running when idle (but for the one asking): 1, refused: 0
samples of the later requests: yes
stat's memory in a worker: anonymous mapping; files in /dev/shm: []
listener serving: yes
state while stopped: stalled
every request answered while it was stopped: yes
state when continued: serving
samples flow again: yes
reader: 0 invalid lines, at EOF: false
php-fpm stopped: yes
the reader gets a clean end: yes
every process gone, none a zombie: yes
stream socket removed: yes
no socket left in the kernel: yes
