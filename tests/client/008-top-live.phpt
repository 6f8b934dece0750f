--TEST--
client: top --once on a live stat stream (unix and tcp): the known hot spot first, header with rate and counts; --seconds ends a run on an idle stream; Ctrl-C still prints the table
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$dir = stat_test_dir();
statq_binary();

/* unix socket: the child starts sampling once statq is connected, works, exits; statq reads to EOF */
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '200', 'stat.stack' => '16'],
    statq_hot_script(500, 'client'));
var_dump($child->waitFor("ready\n"));
$top = new Statq(['top', '--once', '-s', "unix://$dir/stream.sock"]);
var_dump($child->wait());
$code = $top->wait();
printf("top: exit %d, stderr %s\n", $code, $top->stderr() === '' ? 'empty' : $top->stderr());
$rows = statq_parse_top($top->stdout());
printf("first row: %s\n", $rows[0][4] ?? 'none');
printf("hot spot share: %s\n", ($rows[0][1] ?? 0) > 50 ? 'most' : 'not most');
preg_match('/^statq top: (\S+)\nsamples (\d+) \(weighted \d+\), rate ([\d.]+)\/s, lost (\d+), failed (\S+), malformed (\d+), idle (\d+) \(skipped\), filtered out (\d+)$/m',
    $top->stdout(), $m);
printf("header: source %s, samples %s, rate %s, lost %s, malformed %s\n", ($m[1] ?? '') === "unix://$dir/stream.sock" ? 'unix' : ($m[1] ?? '?'), ($m[2] ?? 0) >= 500 ? 'all' : ($m[2] ?? '?'),
    ($m[3] ?? 0) > 0 ? 'yes' : 'no', $m[4] ?? '?', $m[6] ?? '?');
printf("cold_hash listed: %s\n", in_array('cold_hash', array_column($rows, 4), true) ? 'yes' : 'no');

/* tcp: --seconds ends the run while the stream stays open and quiet */
$port = stat_test_port();
$child = new StatChild(['stat.stream' => "tcp://127.0.0.1:$port", 'stat.auto' => '0'], '<?php echo "ready\n"; fgets(STDIN);');
var_dump($child->waitFor("ready\n"));
$start = microtime(true);
[$code, $out, $err] = statq_run(['top', '--once', '--seconds', '0.5', '-s', "tcp://127.0.0.1:$port"]);
$took = microtime(true) - $start;
printf("tcp --seconds: exit %d, ended by itself: %s, source %s, no samples: %s\n%s", $code, $took < 15 ? 'yes' : 'no',
    strpos($out, "statq top: tcp://127.0.0.1:$port\n") === 0 ? 'named' : 'unnamed', strpos($out, '(no samples)') !== false ? 'yes' : 'no', $err);
$child->send("bye\n");
var_dump($child->wait());

/* Ctrl-C: a run without limits stops and still prints its table */
$child = new StatChild(['stat.stream' => "unix://$dir/stream3.sock", 'stat.interval' => '1000'], <<<'PHP'
<?php
echo "ready\n";
$deadline = microtime(true) + 20;
while (stat\counters()['clients_connected'] < 1 && microtime(true) < $deadline) {
    usleep(1000);
}
/* busy while connected, so that the sampler has samples for top (all after it connected) */
$written = stat\counters()['samples_written'];
while (stat\counters()['samples_written'] < $written + 20 && microtime(true) < $deadline) {
    md5(str_repeat('x', 10000));
}
echo "connected\n";
fgets(STDIN);
PHP);
var_dump($child->waitFor("ready\n"));
$top = new Statq(['top', '--once', '-s', "unix://$dir/stream3.sock"]);
var_dump($child->waitFor("connected\n"));
$top->signal(SIGINT);
$code = $top->wait(10);
/* exit 0 with samples; should SIGINT come before statq read any (the stream is asynchronous): exit 1 saying so */
$documented = ($code === 0 && $top->stderr() === '')
    || ($code === 1 && preg_match('/^statq: top: no samples from unix:\S+ in [\d.]+ s: is stat sampling/', $top->stderr()));
printf("after SIGINT: exit as documented: %s, table: %s\n", $documented ? 'yes' : "no ($code: {$top->stderr()})",
    preg_match('/^\s+self\s+self%\s+total\s+total%\s+function$/m', $top->stdout()) ? 'yes' : 'no');
$child->send("bye\n");
var_dump($child->wait());
?>
--EXPECTF--
bool(true)
int(0)
top: exit 0, stderr empty
first row: hot_loop
hot spot share: most
header: source unix, samples all, rate yes, lost 0, malformed 0
cold_hash listed: yes
bool(true)
tcp --seconds: exit 1, ended by itself: yes, source named, no samples: yes
statq: top: no samples from tcp://127.0.0.1:%d in %f s: is stat sampling (requests running, stat.auto on)? statq status shows its settings
int(0)
bool(true)
bool(true)
after SIGINT: exit as documented: yes, table: yes
int(0)
