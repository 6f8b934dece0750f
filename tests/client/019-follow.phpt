--TEST--
client: --follow: when the stream ends (PHP gone, a new one started on the same socket) record and top say so, reconnect and go on, without counting a sample twice; --retry bounds the waiting; without --follow an end before --seconds is reported
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
$show = fn(string $text): string => preg_replace('/\d+\.\d s/', 'N s', str_replace($dir, 'DIR', $text));

/* a PHP process that samples itself while working, until told to stop */
$busy = <<<'PHP'
<?php
echo "pid ", stat\pid(), "\n";
stream_set_blocking(STDIN, false);
$deadline = microtime(true) + 30;
while (trim((string) fgets(STDIN)) !== 'bye' && microtime(true) < $deadline) {
    md5(str_repeat('x', 20000));
}
PHP;
$ini = ['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '1000', 'stat.stack' => '8'];

/* the pids whose samples the temporary file of a recording holds so far */
function pids_recorded(string $dir): array
{
    $pids = [];
    foreach (glob("$dir/.pool.jsonl.*") as $temp) {
        preg_match_all('/"request":\{"pid":(\d+)/', (string) file_get_contents($temp), $m);
        $pids += array_flip($m[1]);
    }
    return array_keys($pids);
}
function wait_recorded(string $dir, int $pid): bool
{
    $deadline = microtime(true) + STAT_TEST_TIMEOUT;
    while (!in_array($pid, pids_recorded($dir)) && microtime(true) < $deadline) {
        usleep(20000);
    }
    return in_array($pid, pids_recorded($dir));
}

$first = new StatChild($ini, $busy);
var_dump($first->waitFor("\n"));
$pid1 = (int) substr($first->stdout(), 4);
$record = new Statq(['record', '--follow', '-s', "$dir/stream.sock", '-o', "$dir/pool.jsonl"]);
printf("first pool recorded: %s\n", wait_recorded($dir, $pid1) ? 'yes' : 'no');
$first->send("bye\n");
var_dump($first->wait());
stat_test_wait_gone("$dir/stream.sock");
$second = new StatChild($ini, $busy);
var_dump($second->waitFor("\n"));
$pid2 = (int) substr($second->stdout(), 4);
printf("second pool recorded: %s\n", wait_recorded($dir, $pid2) ? 'yes' : 'no');
$record->signal(SIGINT);
printf("record --follow: exit %s\n%s", var_export($record->wait(10), true),
    $show(preg_replace('/^statq: record: left out \d+ samples.*\n/m', '', $record->stderr())));
$second->send("bye\n");
var_dump($second->wait());
[$samples] = stat_test_decode(file_get_contents("$dir/pool.jsonl"));
$keys = array_map(fn($s) => json_encode([$s['request']['pid'], $s['elapsed'], $s['time']]), $samples);
$statuses = count(array_filter(file("$dir/pool.jsonl"), fn($l) => str_contains($l, '"type":"status"')));
printf("recording: samples of both: %s, no sample twice: %s, status lines: %d\n",
    count(array_intersect([$pid1, $pid2], array_column(array_column($samples, 'request'), 'pid'))) === 2 ? 'yes' : 'no',
    count(array_unique($keys)) === count($keys) ? 'yes' : 'no', $statuses);

/* top --follow: the table at the end counts the new PHP's samples, taken after the reconnection */
/* the stream clients connected besides the one asking (a status line counts the connection it is sent on) */
function readers(string $dir): int
{
    [$code, $out] = statq_run(['status', '-s', "$dir/stream.sock", '--json']);
    return $code === 0 ? max(0, (int) (json_decode($out, true)['counters']['clients_connected'] ?? 0) - 1) : 0;
}
$a = new StatChild($ini, $busy);
var_dump($a->waitFor("\n"));
$top = new Statq(['top', '--follow', '--once', '-s', "$dir/stream.sock"]);
printf("top connected: %s\n", stat_test_until(fn() => readers($dir) >= 1, 10.0) ? 'yes' : 'no');
$a->send("bye\n");
var_dump($a->wait());
stat_test_wait_gone("$dir/stream.sock");
$b = new StatChild($ini, $busy);
var_dump($b->waitFor("\n"));
printf("top connected again: %s\n", stat_test_until(fn() => readers($dir) >= 1, 10.0) ? 'yes' : 'no');
/* busy long enough for samples to reach top (200 at 1 ms a sample) */
[$code, $out] = statq_run(['record', '--samples', '200', '-s', "$dir/stream.sock", '-o', "$dir/b.jsonl"]);
$top->signal(SIGINT);
$code = $top->wait(10);
$b->send("bye\n");
var_dump($b->wait());
printf("top --follow: exit %s, md5 in the table: %s\n%s", var_export($code, true), preg_match('/\bmd5$/m', $top->stdout()) ? 'yes' : 'no',
    $show(preg_replace('/^statq: top: left out \d+ samples.*\n/m', '', $top->stderr())));

/* --retry: nobody comes back; record gives up after about that long, keeps what it has and exits 1 */
$third = new StatChild($ini, $busy);
var_dump($third->waitFor("\n"));
$pid3 = (int) substr($third->stdout(), 4);
$record = new Statq(['record', '--follow', '--retry', '0.5', '-s', "$dir/stream.sock", '-o', "$dir/pool.jsonl"]);
wait_recorded($dir, $pid3);
$third->send("bye\n");
var_dump($third->wait());
$start = microtime(true);
$code = $record->wait();
printf("gave up: exit %d, within a few seconds: %s\n%s", $code, microtime(true) - $start < 10 ? 'yes' : 'no',
    $show(preg_replace('/^statq: record: left out \d+ samples.*\n/m', '', $record->stderr())));

/* without --follow: the stream ends before --seconds: said so */
$fourth = new StatChild($ini, $busy);
var_dump($fourth->waitFor("\n"));
$pid4 = (int) substr($fourth->stdout(), 4);
$record = new Statq(['record', '--seconds', '60', '-s', "$dir/stream.sock", '-o', "$dir/pool.jsonl"]);
wait_recorded($dir, $pid4);
$fourth->send("bye\n");
var_dump($fourth->wait());
printf("early end: exit %d\n%s", $record->wait(), $show(preg_replace('/^statq: record: left out \d+ samples.*\n/m', '', $record->stderr())));
printf("--follow without -s: %s", statq_run(['record', '--follow', '-f', "$dir/pool.jsonl"])[2]);
?>
--EXPECT--
bool(true)
first pool recorded: yes
int(0)
bool(true)
second pool recorded: yes
record --follow: exit 0
statq: record: the stream from unix://DIR/stream.sock ended (PHP reloaded or restarted?); reconnecting, for up to 30 s
statq: record: reconnected to unix://DIR/stream.sock after N s
int(0)
recording: samples of both: yes, no sample twice: yes, status lines: 2
bool(true)
top connected: yes
int(0)
bool(true)
top connected again: yes
int(0)
top --follow: exit 0, md5 in the table: yes
statq: top: the stream from unix://DIR/stream.sock ended (PHP reloaded or restarted?); reconnecting, for up to 30 s
statq: top: reconnected to unix://DIR/stream.sock after N s
bool(true)
int(0)
gave up: exit 1, within a few seconds: yes
statq: record: the stream from unix://DIR/stream.sock ended (PHP reloaded or restarted?); reconnecting, for up to N s
statq: record: gave up reconnecting: cannot connect to unix://DIR/stream.sock: No such file or directory (is PHP running with stat loaded, and stat.stream/stat.control set to this path?)
bool(true)
int(0)
early end: exit 0
statq: record: the stream from unix://DIR/stream.sock ended after N s, before --seconds (PHP reloaded or restarted? --follow reconnects)
--follow without -s: statq: record: --follow is for a live stream: give -s ADDRESS
