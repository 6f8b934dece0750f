--TEST--
pool: stat's startup warnings reach php-fpm's error log (the log its master writes), not only the stderr the master had before it opened the log: a control socket in a directory that does not exist
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$dir = stat_pool_dir();
$pool = new StatPool([], ['stat.control' => "unix://$dir/missing/control.sock", 'stat.interval' => 'often']);
var_dump($pool->ready());
$log = "$dir/fpm.log";
$found = stat_pool_until(fn() => str_contains((string) @file_get_contents($log), 'stat.control: cannot listen'), 15.0);
$lines = array_values(preg_grep('/stat\./', explode("\n", (string) @file_get_contents($log))));
printf("in the FPM log: %s\n", $found ? 'yes' : 'no');
foreach ($lines as $line) {
    /* FPM's own format: [date] WARNING: ... */
    echo preg_replace(['/^\[[^\]]+\]/', '#unix://\S+/missing#', '/bind\(\S+\)/'], ['[date]', 'unix://DIR/missing', 'bind(PATH)'], $line), "\n";
}
/* the pool serves, and the stream works */
$stream = new StatPoolStream($pool->stream);
$pool->script('work.php', stat_pool_busy(0.1, 'echo "ok";'));
$responses = stat_pool_http($pool->port, [['GET', '/work.php?w=1']], 1, [$stream, 'pump']);
printf("served: %s\n", $responses[0][0] === 200 ? 'yes' : 'no');
var_dump($stream->readUntil(fn($s) => $s->forUri('/work.php?w=1'), 10.0));
?>
--EXPECT--
bool(true)
in the FPM log: yes
[date] WARNING: stat.interval must be an integer from 10 to 10000000 microseconds, 'often' given; using 100
[date] WARNING: stat.control: cannot listen on unix://DIR/missing/control.sock: bind(PATH): No such file or directory; stat runs without a control socket
served: yes
bool(true)
