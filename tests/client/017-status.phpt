--TEST--
client: status -s prints a running stat's live settings, pool-wide counters and listener (human and --json, names as stat\settings() and stat\counters()), sees a live change, and closes; no -s, a stream without a status line and a refusal are clear errors
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
$stream = "unix://$dir/stream.sock";
$control = "unix://$dir/control.sock";

$child = new StatChild(['stat.stream' => $stream, 'stat.control' => $control, 'stat.interval' => '700', 'stat.stack' => '24',
    'stat.auto' => '0'], <<<'PHP'
<?php
while (($line = fgets(STDIN)) !== false && trim($line) !== 'bye') {
    echo json_encode(['settings' => stat\settings(), 'counters' => stat\counters(), 'pid' => getmypid()]), "\n";
}
PHP);
$child->send("now\n");
$deadline = microtime(true) + STAT_TEST_TIMEOUT;
while (substr_count($child->stdout(), "\n") < 1 && microtime(true) < $deadline) {
    $child->waitFor("\n", 0.05);
}
$php = json_decode(strtok($child->stdout(), "\n"), true);

/* --json: the five keys; settings and counters under stat's own names, with stat's values */
[$code, $out, $err] = statq_run(['status', '-s', $stream, '--json']);
$status = json_decode($out, true);
printf("--json: exit %d, stderr %s, one line: %s, keys: %s\n", $code, $err === '' ? 'empty' : $err, substr_count($out, "\n") === 1 ? 'yes' : 'no',
    implode(',', array_keys($status)));
$same = [];
foreach (['auto', 'samplers', 'interval', 'arginfo', 'stack', 'clock', 'samples', 'strings', 'stream', 'control', 'dump'] as $key) {
    $same[] = $key . (array_key_exists($key, $status['settings']) && $status['settings'][$key] === $php['settings'][$key] ? '' : '(differs)');
}
printf("settings as stat\\settings(): %s; stack_max %d\n", implode(' ', $same), $status['settings']['stack_max']);
printf("counters: every name of stat\\counters(): %s; clients_connected %d (this one)\n",
    array_diff(array_keys($php['counters']), array_keys($status['counters'])) ? 'no' : 'yes', $status['counters']['clients_connected']);
printf("listener: pid %s, started before now: %s; version %s; time now: %s\n",
    $status['listener']['pid'] === $php['settings']['listener']['pid'] ? 'as stat\settings()' : 'differs',
    $status['listener']['started'] <= $status['time'] ? 'yes' : 'no', $status['version'], abs($status['time'] - microtime(true)) < 60 ? 'yes' : 'no');

/* a live change shows; the connection is closed afterwards (clients_total grows, clients_connected stays 1) */
[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'interval', '250', 'stack', '8']);
echo $out;
[$code, $out, $err] = statq_run(['status', '-s', $stream]);
printf("human: exit %d, stderr %s\n", $code, $err === '' ? 'empty' : $err);
$out = str_replace([$dir, (string) $status['listener']['pid']], ['DIR', 'PID'], $out);
foreach (explode("\n", $out) as $line) {
    if (preg_match('/^(stat |listener:|pool:|settings|counters|  (auto|samplers|interval|stack|clock|samples|stream|control|samples_written|clients_connected|clients_total) )/', $line)) {
        echo preg_replace(['/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+/', '/\(\d[\d.]* (s|min \d+ s) ago\)/', '/(samples_written|clients_total) +\d+/'],
            ['DATE', '(AGO)', '$1 N'], $line), "\n";
    }
}

/* errors: no -s; a socket that sends samples but no status line (an older stat); a refusal */
[$code, $out, $err] = statq_run(['status']);
printf("no -s: exit %d: %s", $code, $err);
foreach (['{"type":"user","elapsed":1.0}', '{"type":"refused","reason":"too many stream clients (256)"}'] as $first) {
    $fake = new StatChild([], <<<'PHP'
<?php
$server = stream_socket_server('unix://' . $argv[1]);
echo "listening\n";
$client = stream_socket_accept($server, 20);
fwrite($client, $argv[2] . "\n");
fgets(STDIN);
PHP, [], ["$dir/fake.sock", $first]);
    $fake->waitFor("listening\n");
    [$code, $out, $err] = statq_run(['status', '-s', "$dir/fake.sock"]);
    printf("exit %d: %s", $code, str_replace($dir, 'DIR', $err));
    $fake->send("bye\n");
    $fake->wait();
    @unlink("$dir/fake.sock");
}
$child->send("bye\n");
var_dump($child->wait());
?>
--EXPECT--
--json: exit 0, stderr empty, one line: yes, keys: version,time,listener,settings,counters
settings as stat\settings(): auto samplers interval arginfo stack clock samples strings stream control dump; stack_max 24
counters: every name of stat\counters(): yes; clients_connected 1 (this one)
listener: pid as stat\settings(), started before now: yes; version 1.0.0; time now: yes
applied interval 250
applied stack 8
human: exit 0, stderr empty
stat 1.0.0 at unix://DIR/stream.sock, DATE
listener: pid PID, started DATE (AGO)
pool: 0 samples written, 0 failed, 0 lost, 0 readers besides this one, 0 samplers running
settings (live):
  auto                 off
  samplers             0 (no limit)
  interval             250 us
  stack                8 frames (startup maximum 24)
  clock                wall
  samples              10000 ring slots
  stream               unix://DIR/stream.sock
  control              unix://DIR/control.sock
counters (the whole pool):
  samples_written N
  clients_connected    1
  clients_total N
no -s: exit 2: statq: status: give stat's stream socket with -s ADDRESS (e.g. -s /run/php/stat.stream)
exit 1: statq: status: unix://DIR/fake.sock sent a "user" line first, no status line: this stat is older than statq 1.0.0 (its settings: php --ri stat, or stat\settings() in the pool)
exit 1: statq: status: unix://DIR/fake.sock refused the connection: too many stream clients (256)
int(0)
