--TEST--
stream: the listener out of file descriptors (48 here) does not spin: connections past what it can hold are accepted and closed (a stream client gets a "refused" line, never silence) and counted; idle control connections are closed after 5 s, and then new clients are served again
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
/* the child (and so its listener) may open 48 descriptors */
file_put_contents("$dir/limited.sh", "#!/bin/sh\nulimit -n 48 || exit 9\nexec " . escapeshellarg(getenv('TEST_PHP_EXECUTABLE')) . " \"\$@\"\n");
chmod("$dir/limited.sh", 0700);
$php = getenv('TEST_PHP_EXECUTABLE');
putenv("TEST_PHP_EXECUTABLE=$dir/limited.sh");
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => "unix://$dir/control.sock", 'stat.interval' => '1000'], <<<'PHP'
<?php
echo "ready\n";
stream_set_blocking(STDIN, false);
while (!feof(STDIN) && fgets(STDIN) !== "quit\n") {
    $t = microtime(true);
    while (microtime(true) - $t < 0.01) { md5('x'); }
}
echo json_encode(stat\counters()), "\n";
PHP);
putenv("TEST_PHP_EXECUTABLE=$php");
var_dump($child->waitFor("ready\n"));
$listener = stat_test_listeners_started($child->pid())[0] ?? 0;

/* 60 idle control connections: more than the listener has descriptors for */
$controls = [];
for ($i = 0; $i < 60; $i++) {
    $controls[] = stat_test_connect("unix://$dir/control.sock");
}
/* until the listener has taken every connection it can: all its descriptors in use */
printf("listener out of descriptors: %s\n", stat_test_until(fn() => count(glob("/proc/$listener/fd/*") ?: []) >= 48, 10.0) ? 'yes' : 'no (' . count(glob("/proc/$listener/fd/*") ?: []) . ')');
/* a stream client now: refused with a line and closed, never left waiting */
$stream = new StatStream("$dir/stream.sock");
$answered = $stream->readUntil(null, 10.0);
$first = $stream->samples[0] ?? [];
printf("stream client answered and closed: %s\n", $answered ? 'yes' : 'no');
printf("refused with a reason: %s\n", count($stream->samples) === 1 && $first['type'] === 'refused' && str_contains($first['reason'] ?? '', 'file descriptor') ? 'yes' : json_encode($first));

function cpu_ticks(int $pid): int
{
    $stat = (string) @file_get_contents("/proc/$pid/stat");
    $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
    return (int) ($fields[11] ?? 0) + (int) ($fields[12] ?? 0);
}
/* with connections still waiting to be accepted, the listener must sleep in poll(), not loop on accept() */
$more = [];
for ($i = 0; $i < 5; $i++) {
    $more[] = @stream_socket_client("unix://$dir/control.sock", $errno, $errstr, 1.0);
}
$before = cpu_ticks($listener);
$t = microtime(true);
usleep(1000000); /* measuring CPU time over a second: the wait is the measurement */
$ticks = cpu_ticks($listener) - $before;
$hz = 100;
printf("listener CPU over 1 s under 30%%: %s\n", $ticks < 0.3 * $hz * (microtime(true) - $t) ? 'yes' : "no ($ticks ticks)");

/* idle control connections are closed by the listener after 5 s */
$closed = stat_test_until(function () use ($controls) {
    foreach ($controls as $c) {
        $read = [$c];
        $w = $e = null;
        if (stream_select($read, $w, $e, 0, 0) === 0 || fread($c, 1) !== '' || !feof($c)) {
            return false;
        }
    }
    return true;
}, 15.0);
printf("idle control connections closed: %s\n", $closed ? 'yes' : 'no');
/* now a stream client is served */
$again = new StatStream("$dir/stream.sock");
printf("a new stream client gets samples: %s\n", $again->readUntil(fn($s) => count($s->samples) > 0, 10.0) ? 'yes' : 'no');
$child->send("quit\n");
printf("exit: %s\n", var_export($child->wait(), true));
$counters = json_decode(trim(substr($child->stdout(), strlen("ready\n"))), true);
printf("refusals counted: %s\n", ($counters['clients_refused'] ?? 0) > 0 ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
listener out of descriptors: yes
stream client answered and closed: yes
refused with a reason: yes
listener CPU over 1 s under 30%: yes
idle control connections closed: yes
a new stream client gets samples: yes
exit: 0
refusals counted: yes
