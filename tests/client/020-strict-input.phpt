--TEST--
client: strict input: no sample is an error (exit 1) saying what was read; no -s/-f with stdin a terminal or empty names the options; a closed stdout ends statq quietly; -s takes a directory, unix:/path, and refuses what it cannot use clearly
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason");
exec('command -v script', $out, $status); if ($status !== 0) die('skip script (util-linux) is not installed'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$dir = stat_test_dir();
statq_binary();
$show = fn(string $text): string => str_replace($dir, 'DIR', $text);

/* 1. a file that is not a recording, an empty file: every reader fails, writes nothing */
file_put_contents("$dir/words.txt", "hello\nworld\n\n");
touch("$dir/empty.jsonl");
foreach (['fold', 'top', 'speedscope', 'flame', 'record'] as $command) {
    $args = [$command, '-f', "$dir/words.txt"];
    if ($command !== 'fold' && $command !== 'top') {
        $args = array_merge($args, ['-o', "$dir/out.$command"]);
    }
    [$code, $out, $err] = statq_run($args);
    printf("%s words.txt: exit %d, output %s\n%s", $command, $code, $out === '' && !file_exists("$dir/out.$command") ? 'none' : 'some', $show($err));
}
[$code, $out, $err] = statq_run(['fold', '-f', "$dir/empty.jsonl"]);
printf("fold empty.jsonl: exit %d\n%s", $code, $show($err));

/* 2. filters that match nothing */
[$code, $out, $err] = statq_run(['fold', '--pid', '1', '-f', __DIR__ . '/fixtures/shop.jsonl']);
printf("fold --pid 1: exit %d\n%s", $code, preg_replace('/among the \d+ read/', 'among the N read', $show($err)));

/* 3. no -s or -f: stdin empty, or a terminal */
[$code, $out, $err] = statq_run(['top'], '');
printf("top, stdin empty: exit %d\n%s", $code, $err);
$tty = proc_open(['script', '-qec', escapeshellarg(statq_binary()) . ' fold', '/dev/null'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$text = stream_get_contents($pipes[1]);
fclose($pipes[0]);
fclose($pipes[1]);
fclose($pipes[2]);
printf("fold, stdin a terminal: exit %d\n%s\n", proc_close($tty), trim($text));

/* 4. a closed stdout (statq fold | head -n 1): a quiet end, exit 0, at once */
$lines = '';
for ($i = 0; $i < 20000; $i++) {
    $lines .= json_encode(['type' => 'user', 'request' => ['pid' => 7, 'elapsed' => 0.1, 'path' => '/x.php'],
        'elapsed' => 0.2 + $i / 10000, 'location' => ['file' => '/x.php', 'line' => 1], 'symbol' => ['function' => "function_$i"]]) . "\n";
}
file_put_contents("$dir/big.jsonl", $lines);
foreach ([['fold'], ['flame'], ['record'], ['speedscope'], ['top', '--once', '--rows', '0']] as $args) {
    $process = proc_open(array_merge([statq_binary()], $args, ['-f', "$dir/big.jsonl"]),
        [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', "$dir/stderr", 'w']], $pipes);
    $first = fgets($pipes[1]);
    fclose($pipes[1]);
    $start = microtime(true);
    do {
        $status = proc_get_status($process);
    } while ($status['running'] && microtime(true) - $start < STAT_TEST_TIMEOUT && usleep(5000) === null);
    proc_close($process);
    printf("%s | head -n 1: read a line: %s, exit %s, stderr %s\n", $args[0], $first !== false ? 'yes' : 'no',
        $status['running'] ? 'still running' : $status['exitcode'], file_get_contents("$dir/stderr") === '' ? 'empty' : file_get_contents("$dir/stderr"));
}

/* 5. addresses: a directory holding stat.stream, unix:/path, unix:///path; directories without it, and bad forms */
mkdir("$dir/a");
mkdir("$dir/b");
$child = new StatChild(['stat.stream' => "unix://$dir/a/stat.stream", 'stat.control' => "unix://$dir/b/ctl.sock"], '<?php echo "ready\n"; fgets(STDIN);');
var_dump($child->waitFor("ready\n"));
foreach (["$dir/a", "unix:$dir/a/stat.stream", "unix://$dir/a/stat.stream", "$dir/b", $dir, "tcp:127.0.0.1:8010", "127.0.0.1:8010", "http://localhost/"] as $address) {
    [$code, $out, $err] = statq_run(['status', '-s', $address]);
    printf("-s %s: exit %d, %s\n", $show($address), $code, $code === 0 ? strtok($show($out), ',') : trim($show($err)));
}
$child->send("bye\n");
var_dump($child->wait());
?>
--EXPECTF--
fold words.txt: exit 1, output none
statq: warning: skipped 2 malformed lines in DIR/words.txt
statq: fold: no samples in DIR/words.txt: 3 lines, none of them a stat sample (is it a recording of stat's stream?)
top words.txt: exit 1, output some
statq: warning: skipped 2 malformed lines in DIR/words.txt
statq: top: no samples in DIR/words.txt: 3 lines, none of them a stat sample (is it a recording of stat's stream?)
speedscope words.txt: exit 1, output none
statq: warning: skipped 2 malformed lines in DIR/words.txt
statq: speedscope: no samples in DIR/words.txt: 3 lines, none of them a stat sample (is it a recording of stat's stream?)
flame words.txt: exit 1, output none
statq: warning: skipped 2 malformed lines in DIR/words.txt
statq: flame: no samples in DIR/words.txt: 3 lines, none of them a stat sample (is it a recording of stat's stream?)
record words.txt: exit 1, output none
statq: warning: skipped 2 malformed lines in DIR/words.txt
statq: record: no samples in DIR/words.txt: 3 lines, none of them a stat sample (is it a recording of stat's stream?)
fold empty.jsonl: exit 1
statq: fold: no samples in DIR/empty.jsonl: it is empty
fold --pid 1: exit 1
statq: fold: no sample matched the filters (--pid, --uri, --script) among the N read from %s/shop.jsonl
top, stdin empty: exit 1
statq: top: nothing on stdin: read stat's stream with -s ADDRESS (e.g. -s /run/php/stat.stream) or a recording with -f FILE
fold, stdin a terminal: exit 2
statq: fold: no input: give -s ADDRESS to read stat's stream socket (e.g. -s /run/php/stat.stream), -f FILE to read a recording, or pipe samples into stdin (see statq fold --help)
fold | head -n 1: read a line: yes, exit 0, stderr empty
flame | head -n 1: read a line: yes, exit 0, stderr empty
record | head -n 1: read a line: yes, exit 0, stderr empty
speedscope | head -n 1: read a line: yes, exit 0, stderr empty
top | head -n 1: read a line: yes, exit 0, stderr empty
bool(true)
-s DIR/a: exit 0, stat 1.0.0 at unix://DIR/a/stat.stream
-s unix:DIR/a/stat.stream: exit 0, stat 1.0.0 at unix://DIR/a/stat.stream
-s unix://DIR/a/stat.stream: exit 0, stat 1.0.0 at unix://DIR/a/stat.stream
-s DIR/b: exit 1, statq: status: DIR/b is a directory, not a socket; the sockets in it: ctl.sock
-s DIR: exit 1, statq: status: DIR is a directory, not a socket, and holds no socket (looked for stat.stream)
-s tcp:127.0.0.1:8010: exit 1, statq: status: a tcp address is written tcp://host:port, 'tcp:127.0.0.1:8010' given
-s 127.0.0.1:8010: exit 1, statq: status: cannot connect to unix://127.0.0.1:8010: No such file or directory (for a TCP address write tcp://127.0.0.1:8010)
-s http://localhost/: exit 1, statq: status: unknown scheme in 'http://localhost/' (use unix:///path, tcp://host:port or a path)
int(0)
