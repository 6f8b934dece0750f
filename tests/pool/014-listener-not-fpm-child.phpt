--TEST--
pool: the stat listener is not a child of php-fpm's master: killed, php-fpm logs no "unknown child"; the pool keeps serving, stat\settings() shows the listener gone, one warning says so in the log, clients_connected drops to 0 and statq status says the listener is not running
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; require __DIR__ . '/../client/client.inc';
if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
require __DIR__ . '/../client/client.inc';

$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '2']);
$pool->script('work.php', stat_pool_busy(0.05, 'echo getmypid();'));
$pool->script('listener.php', '<?php echo json_encode(stat\\settings()["listener"]);');
$pool->script('counters.php', '<?php echo json_encode(stat\\counters());');
var_dump($pool->ready());
$master = $pool->masterPid();
/* stat\settings() in a worker names the listener and what it does */
[[$code, $body]] = stat_pool_http($pool->port, [['GET', '/listener.php']]);
$listener = json_decode($body, true);
$pid = (int) ($listener['pid'] ?? 0);
printf("a worker sees the listener: %s\n", $code === 200 && ($listener['state'] ?? '') === 'serving' && $pid > 0 ? 'serving' : $body);
printf("it is the stat listener: %s\n", preg_match('/^\d+ \(stat listener\) /', (string) @file_get_contents("/proc/$pid/stat")) ? 'yes' : 'no');
$parent = preg_match('/^\d+ \(.*\) \S (\d+) /', (string) @file_get_contents("/proc/$pid/stat"), $m) ? (int) $m[1] : -1;
printf("its parent is not php-fpm: %s\n", $parent !== $master && !in_array($parent, $pool->workers(), true) ? 'yes' : "no ($parent)");

/* a reader connected while the listener is killed */
$reader = new StatPoolStream("unix://$pool->stream");
printf("a reader counted: %s\n", stat_pool_until(function () use ($pool, $reader) {
    $reader->pump();
    [[, $body]] = stat_pool_http($pool->port, [['GET', '/counters.php']]);
    return (json_decode($body, true)['clients_connected'] ?? 0) >= 1;
}, 10.0) ? 'yes' : 'no');
stat_pool_kill($pid, SIGKILL);
printf("listener gone: %s\n", stat_pool_until(fn() => !stat_pool_alive($pid), 10.0) ? 'yes' : 'no');
$responses = stat_pool_http($pool->port, [['GET', '/work.php?after=1'], ['GET', '/work.php?after=2']]);
printf("the pool still serves: %s\n", count(array_filter($responses, fn($r) => $r[0] === 200)) === 2 ? 'yes' : 'no');
/* within a few seconds (it rounds at least once a second) the workers see it gone, and one says so in the log */
$state = null;
stat_pool_until(function () use ($pool, &$state) {
    [[, $body]] = stat_pool_http($pool->port, [['GET', '/listener.php']]);
    $state = json_decode($body, true)['state'] ?? $body;
    return $state === 'gone';
}, 15.0);
printf("a worker sees it: %s\n", $state);
/* the next requests' start (each worker looks once a second at most) writes it to the log, once */
$said = "stat: the listener process (pid $pid) is gone";
printf("said in fpm.log: %s\n", stat_pool_until(function () use ($pool, $said) {
    stat_pool_http($pool->port, [['GET', '/work.php?later=1'], ['GET', '/work.php?later=2']], 2);
    return str_contains((string) @file_get_contents("$pool->dir/fpm.log"), $said);
}, 15.0) ? 'yes' : 'no');
[[, $body]] = stat_pool_http($pool->port, [['GET', '/counters.php']]);
printf("clients_connected after: %s\n", json_decode($body, true)['clients_connected'] ?? $body);
$reader->close();
[$code, $out, $err] = statq_run(['status', '-s', $pool->stream]);
printf("statq status: exit %d, %s\n", $code, str_contains($err, "stat's listener is not running") ? 'says the listener is not running' : $err);

stat_pool_kill($master, SIGQUIT);
printf("php-fpm stopped: %s\n", stat_pool_until(fn() => !stat_pool_alive($master), 10.0) ? 'yes' : 'no');
$log = (string) @file_get_contents("$pool->dir/fpm.log");
printf("fpm.log says unknown child: %s\n", preg_match('/unknown child|stopped for tracing/', $log) ? 'yes' : 'no');
printf("said once: %s\n", substr_count($log, $said) === 1 ? 'yes' : substr_count($log, $said) . ' times');
?>
--EXPECT--
bool(true)
a worker sees the listener: serving
it is the stat listener: yes
its parent is not php-fpm: yes
a reader counted: yes
listener gone: yes
the pool still serves: yes
a worker sees it: gone
said in fpm.log: yes
clients_connected after: 0
statq status: exit 1, says the listener is not running
php-fpm stopped: yes
fpm.log says unknown child: no
said once: yes
