--TEST--
pool: php-fpm daemonized (the process that ran MINIT exits): the stream still serves every worker afterwards
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$pool = new StatPool(['pm' => 'dynamic', 'pm.max_children' => '4', 'pm.start_servers' => '2',
    'pm.min_spare_servers' => '1', 'pm.max_spare_servers' => '3'], [], false);
$pool->script('work.php', stat_pool_busy(0.2, 'echo getmypid();'));
var_dump($pool->ready());

/* the process we started ran MINIT, forked the master and exited */
$launcher = proc_get_status($pool->fpm);
$first = $launcher['pid'];
printf("first process exited: %s\n", stat_pool_until(fn() => !proc_get_status($pool->fpm)['running'], 10.0) ? 'yes' : 'no');
$master = $pool->masterPid();
printf("master is another process: %s\n", $master > 0 && $master !== $first && stat_pool_alive($master) ? 'yes' : 'no');

/* connect only now, after the daemonizing exit */
$stream = new StatPoolStream($pool->stream);
$requests = [];
for ($i = 0; $i < 6; $i++) {
    $requests[] = ['GET', "/work.php?daemon=$i"];
}
$responses = stat_pool_http($pool->port, $requests, 3, [$stream, 'pump']);
$served = array_unique(array_map(fn($r) => (int) $r[1], $responses));
printf("all answered: %s\n", count(array_filter($responses, fn($r) => $r[0] === 200)) === 6 ? 'yes' : 'no');
var_dump($stream->readUntil(function ($s) use ($requests) {
    foreach ($requests as [, $uri]) {
        if (!$s->forUri($uri)) {
            return false;
        }
    }
    return true;
}));
$pids = $stream->pids();
printf("samples from the serving workers only: %s\n", $pids && array_diff($pids, $served) === [] ? 'yes' : 'no');
printf("no sample from the first process: %s\n", in_array($first, $pids, true) ? 'no' : 'yes');
var_dump($stream->invalid);
?>
--EXPECT--
bool(true)
first process exited: yes
master is another process: yes
all answered: yes
bool(true)
samples from the serving workers only: yes
no sample from the first process: yes
array(0) {
}
