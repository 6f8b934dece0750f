--TEST--
pool: workers killed in the middle of a sampled request (SIGKILL, request_terminate_timeout) leak no sampler place and the pool keeps streaming
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

/* at most 2 samplers at once across the pool: a place leaked by a dead worker would refuse a later request */
$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '2', 'request_terminate_timeout' => '4s'], ['stat.samplers' => '2']);
$pool->script('forever.php', stat_pool_busy(60));
$pool->script('counters.php', stat_pool_busy(0.3, 'echo json_encode(["pid" => getmypid(), "active" => stat\sampler\active()] + stat\counters());'));
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);

/* 1. SIGKILL the worker as soon as its request shows up on the stream */
$killed = null;
$kill = function () use ($stream, &$killed) {
    $stream->pump();
    if ($killed === null && ($samples = $stream->forUri('/forever.php?kill=1'))) {
        $killed = $samples[0]['request']['pid'];
        stat_pool_kill($killed, SIGKILL);
    }
};
[$status] = stat_pool_http($pool->port, [['GET', '/forever.php?kill=1']], 1, $kill, 30.0, [$stream->socket])[0];
printf("killed a worker mid-request: %s\n", $killed !== null && $status === 502 ? 'yes' : "no ($status)");

/* 2. php-fpm's request_terminate_timeout kills the next one after 4 s */
$before = $pool->workers();
[$status] = stat_pool_http($pool->port, [['GET', '/forever.php?timeout=1']], 1, [$stream, 'pump'], 30.0, [$stream->socket])[0];
$timedOut = $stream->forUri('/forever.php?timeout=1');
printf("terminated by php-fpm after being sampled: %s\n", $timedOut && $status >= 500 ? 'yes' : "no ($status)");
$victim = $timedOut ? $timedOut[0]['request']['pid'] : 0;
printf("that worker is gone: %s\n", stat_pool_until(fn() => !stat_pool_alive($victim), 10.0) ? 'yes' : 'no');
printf("the pool replaced both workers: %s\n", stat_pool_until(fn() => count($pool->workers()) === 2 && !in_array($killed, $pool->workers(), true) && !in_array($victim, $pool->workers(), true), 10.0) ? 'yes' : 'no');

/* 3. a later request alone: one sampler active (its own) */
[$status, $body] = stat_pool_http($pool->port, [['GET', '/counters.php?alone=1']], 1, [$stream, 'pump'])[0];
$alone = json_decode($body, true);
printf("later request active: %s, samplers_active: %s\n", json_encode($alone['active'] ?? null), json_encode($alone['samplers_active'] ?? null));
printf("samplers_refused: %s\n", json_encode($alone['samplers_refused'] ?? null));

/* 4. two at once still both get one of the 2 places */
$both = stat_pool_http($pool->port, [['GET', '/counters.php?both=1'], ['GET', '/counters.php?both=2']], 2, [$stream, 'pump']);
$both = array_map(fn($r) => json_decode($r[1], true), $both);
printf("two concurrent requests both active: %s\n", ($both[0]['active'] ?? false) && ($both[1]['active'] ?? false) ? 'yes' : 'no: ' . json_encode($both));
printf("on two workers: %s\n", ($both[0]['pid'] ?? 0) !== ($both[1]['pid'] ?? 0) ? 'yes' : 'no');

/* 5. and their samples are on the stream that was connected all along */
var_dump($stream->readUntil(fn($s) => $s->forUri('/counters.php?both=1') && $s->forUri('/counters.php?both=2') && $s->forUri('/counters.php?alone=1'), 10.0));
var_dump($stream->eof, $stream->invalid);
?>
--EXPECT--
bool(true)
killed a worker mid-request: yes
terminated by php-fpm after being sampled: yes
that worker is gone: yes
the pool replaced both workers: yes
later request active: true, samplers_active: 1
samplers_refused: 0
two concurrent requests both active: yes
on two workers: yes
bool(true)
bool(false)
array(0) {
}
