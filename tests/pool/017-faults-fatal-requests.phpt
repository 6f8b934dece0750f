--TEST--
pool faults: sampled fpm requests that end in memory_limit exhaustion, a fatal error, an uncaught exception, exit() inside a fiber and an error inside a fiber: each was sampled, the worker goes on serving with its sampler place given back (stat.samplers=1), and the pool stops clean
--SKIPIF--
<?php require __DIR__ . '/faults.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/faults.inc';

/*
 * One worker and one sampler place: a request that ended in a fault and kept
 * its place would leave the next request unsampled (active() false, counted
 * as refused). Each fault first works until it was sampled, so its samples
 * must reach the reader; the stream then carries the next requests too.
 */
$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '1'], ['stat.samplers' => '1', 'stat.interval' => '100']);
stat_faults_scripts($pool);
$busy = 'function busy() { $t = microtime(true); $w = stat\counters()["samples_written"]; $x = ""; ' .
    'while ((microtime(true) - $t < 0.05 || stat\counters()["samples_written"] - $w < 30) && microtime(true) - $t < 10) { $x = md5($x); } return $x; }';
$faults = [
    'memory' => "<?php $busy\nbusy();\nini_set('memory_limit', '16M');\n\$a = [];\nwhile (true) { \$a[] = str_repeat('m', 1 << 16); }\n",
    'fatal' => "<?php $busy\nbusy();\nundefined_function_called_here();\n",
    'exception' => "<?php $busy\nbusy();\nthrow new RuntimeException('uncaught');\n",
    'fiber-exit' => "<?php $busy\n\$f = new Fiber(function () { busy(); Fiber::suspend(1); busy(); echo 'exiting'; exit(0); });\n\$f->start();\n\$f->resume();\necho 'not reached';\n",
    'fiber-fatal' => "<?php $busy\n\$f = new Fiber(function () { busy(); \$o = null; \$o->method(); });\n\$f->start();\n",
];
foreach ($faults as $name => $source) {
    $pool->script("$name.php", $source);
}
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);
$master = $pool->masterPid();
$worker = stat_pool_until(fn() => $pool->workers(), 10.0);
$seen = array_merge([$master], $worker);

foreach ($faults as $name => $source) {
    [[$status, $body]] = stat_pool_http($pool->port, [['GET', "/$name.php"]], 1, [$stream, 'pump'], 30.0, [$stream->socket]);
    $sampled = $stream->readUntil(fn($s) => $s->forUri("/$name.php"), 10.0);
    /* the same worker, at once: sampled again, with the one place */
    [[$code, $json]] = stat_pool_http($pool->port, [['GET', "/counters.php?after=$name"]], 1, [$stream, 'pump'], 30.0, [$stream->socket]);
    $next = json_decode($json, true);
    /* 500, or 200 when display_errors shows the error (the pool's php.ini sends it to stderr, php-fpm's log) */
    printf("%s: answered %s%s, sampled: %s; next request %d, sampled: %s, samplers running: %s, refused: %s\n", $name, $name === 'fiber-exit' ? $status : (in_array($status, [200, 500], true) ? '200 or 500' : $status),
        $name === 'fiber-exit' ? ' ' . json_encode($body) : '', $sampled ? 'yes' : 'no', $code,
        json_encode($next['active'] ?? null), json_encode($next['samplers_active'] ?? null), json_encode($next['samplers_refused'] ?? null));
}
/* the master copies the workers' stderr into its log as it reads it: polled */
$logged = fn(string $text) => stat_pool_until(fn() => str_contains((string) @file_get_contents("$pool->dir/fpm.log"), $text), 10.0) ? 'yes' : 'no';
printf("fpm.log tells the memory limit: %s\n", $logged('Allowed memory size of 16777216 bytes exhausted'));
printf("fpm.log tells the fatal error: %s\n", $logged('undefined_function_called_here'));
printf("the worker survived every fault: %s\n", $pool->workers() === $worker ? 'yes' : json_encode([$pool->workers(), $worker]));
printf("samples of every later request: %s\n", $stream->readUntil(fn($s) => count(array_filter(array_keys($faults), fn($n) => $s->forUri("/counters.php?after=$n"))) === count($faults), 10.0) ? 'yes' : 'no');
printf("reader: %d invalid lines\n", count($stream->invalid));
printf("no zombie child of the master: %s\n", stat_faults_zombies([$master]) === [] ? 'yes' : 'no');
$listener = (int) (stat_faults_listener($pool)['pid'] ?? 0);
stat_faults_stop($pool, array_merge($seen, [$listener]), $stream);
?>
--EXPECT--
bool(true)
memory: answered 200 or 500, sampled: yes; next request 200, sampled: true, samplers running: 1, refused: 0
fatal: answered 200 or 500, sampled: yes; next request 200, sampled: true, samplers running: 1, refused: 0
exception: answered 200 or 500, sampled: yes; next request 200, sampled: true, samplers running: 1, refused: 0
fiber-exit: answered 200 "exiting", sampled: yes; next request 200, sampled: true, samplers running: 1, refused: 0
fiber-fatal: answered 200 or 500, sampled: yes; next request 200, sampled: true, samplers running: 1, refused: 0
fpm.log tells the memory limit: yes
fpm.log tells the fatal error: yes
the worker survived every fault: yes
samples of every later request: yes
reader: 0 invalid lines
no zombie child of the master: yes
php-fpm stopped: yes
the reader gets a clean end: yes
every process gone, none a zombie: yes
stream socket removed: yes
no socket left in the kernel: yes
