--TEST--
pool faults: the listener SIGKILLed under parallel load with a reader connected: the reader gets an end (every whole line valid), the pool keeps serving with sampling going on, the listener shows as gone; stopped, the pool removes the socket file the dead listener left
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
 * Decided: a listener that dies is not replaced until php-fpm reloads or
 * restarts (014 tells how it is reported); requests are still sampled into
 * the ring. Its socket file, which it can no longer remove, is removed by
 * php-fpm's master when it stops, if it is still the one stat created.
 */
$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '4'], ['stat.interval' => '500']);
stat_faults_scripts($pool);
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);
$master = $pool->masterPid();
$seen = array_merge([$master], stat_pool_until(fn() => count($pool->workers()) === 4 ? $pool->workers() : null, 10.0) ?: []);
$listener = (int) (stat_faults_listener($pool)['pid'] ?? 0);
$seen[] = $listener;

/* the listener is killed once the reader has samples of the load */
$killedAt = null;
$pump = function () use ($stream, $listener, &$killedAt) {
    $stream->pump();
    if ($killedAt === null && count($stream->samples) >= 20) {
        stat_pool_kill($listener, SIGKILL);
        $killedAt = count($stream->samples);
    }
};
$answers = stat_pool_http($pool->port, array_fill(0, 40, ['GET', '/work.php?load=1']), 4, $pump, 60.0, [$stream->socket]);
printf("listener killed under load: %s\n", $killedAt !== null ? 'yes' : 'no');
printf("every request answered 200: %s\n", count(array_filter($answers, fn($r) => $r[0] === 200)) === 40 ? 'yes' : json_encode(array_count_values(array_column($answers, 0))));
printf("the reader gets an end: %s\n", $stream->readAll(10.0) ? 'yes' : 'no');
/* SIGKILL may cut the last line the listener was writing: every whole line is valid */
printf("whole lines valid: %s, a cut line at the end: %s\n", $stream->invalid ? json_encode($stream->invalid) : 'yes', strlen($stream->rest()) < 65536 ? 'at most one' : 'more');
printf("listener gone: %s\n", stat_pool_until(fn() => !stat_pool_alive($listener), 10.0) ? 'yes' : 'no');
printf("a worker sees it gone: %s\n", stat_pool_until(fn() => (stat_faults_listener($pool)['state'] ?? '') === 'gone', 15.0) ? 'yes' : json_encode(stat_faults_listener($pool)));
/* requests go on, and are still sampled (into the ring) */
[[$status, $body]] = stat_pool_http($pool->port, [['GET', '/counters.php?after=1']]);
$counters = json_decode($body, true);
printf("after: %d, sampled: %s, samples written meanwhile: %s\n", $status, json_encode($counters['active'] ?? null), ($counters['samples_written'] ?? 0) > 0 ? 'yes' : 'no');
printf("the socket file is still there: %s\n", file_exists($pool->stream) ? 'yes' : 'no');
stat_faults_stop($pool, $seen, null);
?>
--EXPECT--
bool(true)
listener killed under load: yes
every request answered 200: yes
the reader gets an end: yes
whole lines valid: yes, a cut line at the end: at most one
listener gone: yes
a worker sees it gone: yes
after: 200, sampled: true, samples written meanwhile: yes
the socket file is still there: yes
php-fpm stopped: yes
every process gone, none a zombie: yes
stream socket removed: yes
no socket left in the kernel: yes
