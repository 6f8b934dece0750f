--TEST--
client: from a socket, record and top keep only samples taken from the moment they connect (time >= the status line's), count the others (the ring's backlog) and say so; --backlog keeps them; samples without "time" are kept
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

/* the child samples itself (300+ samples) before anyone connects, then again once three clients are connected */
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '200', 'stat.stack' => '16', 'stat.dump' => '3'], <<<'PHP'
<?php
function work(int $more): void {
    $until = stat\counters()['samples_written'] + $more;
    $deadline = microtime(true) + 20;
    while (stat\counters()['samples_written'] < $until && microtime(true) < $deadline) {
        md5(str_repeat('x', 5000));
    }
}
work(300);
echo "old\n";
$deadline = microtime(true) + 20;
while (stat\counters()['clients_connected'] < 3 && microtime(true) < $deadline) {
    usleep(1000);
}
work(300);
echo "done\n";
PHP, [3 => ['file', "$dir/dump.jsonl", 'w']]);
var_dump($child->waitFor("old\n"));
$new = new Statq(['record', '-s', "$dir/stream.sock", '-o', "$dir/new.jsonl"]);
$all = new Statq(['record', '--backlog', '-s', "$dir/stream.sock", '-o', "$dir/all.jsonl"]);
$top = new Statq(['top', '--once', '-s', "$dir/stream.sock"]);
var_dump($child->wait());
printf("exits: %d %d %d\n", $new->wait(), $all->wait(), $top->wait());

[$dumped] = stat_test_decode(file_get_contents("$dir/dump.jsonl"));
$lines = file("$dir/new.jsonl", FILE_IGNORE_NEW_LINES);
$status = json_decode($lines[0], true);
[$recorded] = stat_test_decode(file_get_contents("$dir/new.jsonl"));
$before = count(array_filter($dumped, fn($s) => $s['time'] < $status['time']));
$after = count(array_filter($dumped, fn($s) => $s['time'] >= $status['time']));
printf("record: first line the status line: %s; every sample from then on: %s; as many as stat took since: %s\n",
    $status['type'] === 'status' ? 'yes' : 'no', count(array_filter($recorded, fn($s) => $s['time'] < $status['time'])) === 0 ? 'yes' : 'no',
    count($recorded) === $after ? 'yes' : count($recorded) . " vs $after");
preg_match('/left out (\d+) samples/', $new->stderr(), $m);
printf("record says it left out the older ones: %s (%s)\n", ($m[1] ?? -1) == $before ? 'yes' : 'no', $before >= 300 ? '300 or more' : $before);
echo preg_replace('/\d+/', 'N', $new->stderr());

[$everything] = stat_test_decode(file_get_contents("$dir/all.jsonl"));
printf("record --backlog: every sample stat took: %s, stderr %s\n", count($everything) === count($dumped) ? 'yes' : count($everything) . ' vs ' . count($dumped),
    $all->stderr() === '' ? 'empty' : $all->stderr());

preg_match('/^backlog left out (\d+) \(samples taken before statq connected\)$/m', $top->stdout(), $m);
preg_match('/^samples (\d+) \(weighted \d+\),.* idle (\d+) \(skipped\)/m', $top->stdout(), $n);
printf("top: backlog in the header: %s, samples (and idle ones) after it: %s\n", ($m[1] ?? 0) >= 300 ? 'yes' : 'no',
    isset($n[1], $m[1]) && $n[1] + $n[2] + $m[1] === count($dumped) ? 'all the rest' : 'no');

/* a stream whose samples have no "time" (an older stat): kept; with time, older than the status line: left out */
$fake = new StatChild([], <<<'PHP'
<?php
$server = stream_socket_server('unix://' . $argv[1]);
echo "listening\n";
$client = stream_socket_accept($server, 20);
$sample = fn(string $f, ?float $time) => json_encode(['type' => 'user', 'request' => ['pid' => 3, 'elapsed' => 0.5, 'path' => '/x.php'],
    'elapsed' => 1.0] + ($time === null ? [] : ['time' => $time]) + ['location' => ['file' => '/x.php', 'line' => 2], 'symbol' => ['function' => $f]]) . "\n";
fwrite($client, json_encode(['type' => 'status', 'time' => 1000.5, 'elapsed' => 1.0]) . "\n");
fwrite($client, $sample('old', 999.0) . $sample('untimed', null) . $sample('untimed', null) . $sample('new', 1000.5) . $sample('new', 1001.0));
fclose($client);
PHP, [], ["$dir/fake.sock"]);
$fake->waitFor("listening\n");
[$code, $out, $err] = statq_run(['fold', '-s', "$dir/fake.sock"]);
printf("fake stream: exit %d\n%s%s", $code, $out, $err);
$fake->wait();
unlink("$dir/fake.sock");
?>
--EXPECT--
bool(true)
int(0)
exits: 0 0 0
record: first line the status line: yes; every sample from then on: yes; as many as stat took since: yes
record says it left out the older ones: yes (300 or more)
statq: record: left out N samples taken before statq connected (the ring's backlog; --backlog keeps them)
record --backlog: every sample stat took: yes, stderr empty
top: backlog in the header: yes, samples (and idle ones) after it: all the rest
fake stream: exit 0
new 2
untimed 2
