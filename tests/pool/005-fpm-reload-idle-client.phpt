--TEST--
pool: a graceful reload of php-fpm (SIGUSR2 to the master, which re-executes itself) with one reading client and one that never reads: afterwards the stream socket serves the new workers
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '2']);
$pool->script('work.php', stat_pool_busy(0.2, 'echo getmypid();'));
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);
$idle = stat_test_connect($pool->stream); /* connected, never reads */

function sampled(StatPool $pool, StatPoolStream $stream, string $tag): bool
{
    $requests = [['GET', "/work.php?$tag=1"], ['GET', "/work.php?$tag=2"]];
    $responses = stat_pool_http($pool->port, $requests, 2, [$stream, 'pump']);
    if (array_column($responses, 0) !== [200, 200]) {
        fprintf(STDERR, "%s: %s\n", $tag, json_encode($responses));
    }
    return $stream->readUntil(fn($s) => $s->forUri($requests[0][1]) || $s->forUri($requests[1][1]), 10.0);
}

printf("sampled before the reload: %s\n", sampled($pool, $stream, 'before') ? 'yes' : 'no');
$master = $pool->masterPid();
$before = $pool->workers();
stat_pool_kill($master, SIGUSR2);
$after = stat_pool_until(function () use ($pool, $before) {
    $workers = $pool->workers();
    return count($workers) === 2 && array_intersect($workers, $before) === [] ? $workers : null;
}, 15.0);
printf("new workers after the reload: %s\n", $after ? 'yes' : 'no');
printf("same master pid: %s\n", $pool->masterPid() === $master ? 'yes' : 'no');

/* the old client: its listener went away with the old generation, so it sees EOF */
printf("old client got EOF: %s\n", $stream->readAll(10.0) ? 'yes' : 'no');
var_dump($stream->invalid);

/* a new client on the same path gets the new generation's samples */
$again = new StatPoolStream($pool->stream, 10.0);
printf("sampled after the reload: %s\n", sampled($pool, $again, 'after') ? 'yes' : 'no');
printf("from the new workers: %s\n", $after && array_diff($again->pids(), $after) === [] ? 'yes' : 'no (' . implode(',', $again->pids()) . ')');
$warnings = preg_grep('/PHP (Warning|Fatal|Notice)|stat\./', file("$pool->dir/fpm.out") ?: []);
var_dump(array_values($warnings));
?>
--EXPECT--
bool(true)
sampled before the reload: yes
new workers after the reload: yes
same master pid: yes
old client got EOF: yes
array(0) {
}
sampled after the reload: yes
from the new workers: yes
array(0) {
}
