--TEST--
stream: a stale unix socket file (closed without unlink, or left by a killed process) is replaced
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();

/* Start a child on $path and check it serves its own samples there. */
function serves(string $path): array
{
    $child = new StatChild(['stat.stream' => $path], stat_stream_cpu_script(0.2));
    $ready = $child->waitFor("ready\n");
    $stream = new StatStream($path);
    $got = $stream->readUntil(fn($s) => count($s->samples) >= 10);
    $pids = array_unique(array_map(fn($s) => $s['request']['pid'], $stream->samples));
    $child->send("go\n");
    $code = $child->wait();
    return [
        'ready' => $ready,
        'samples from the child' => $got && $pids === [$child->pid()],
        'exit' => $code,
        'stderr' => $child->stderr(),
        'invalid' => count($stream->invalid),
    ];
}

/* a socket bound in PHP and closed: the file stays, nobody listens */
$path = "$dir/closed.sock";
$server = stream_socket_server("unix://$path");
fclose($server);
clearstatcache();
printf("stale file is a socket: %s\n", filetype($path));
printf("nobody listens on it: %s\n", @stream_socket_client("unix://$path", $errno, $errstr, 1.0) ? 'no' : 'yes');
var_dump(serves($path));
clearstatcache();
/* connecting to the stale file is refused; samples arrived, so stat listens there */
printf("the child removed its socket at exit: %s\n", stat_test_wait_gone($path) ? 'yes' : 'no');

/* a socket left by a stat process killed with SIGKILL */
$path = "$dir/killed.sock";
$killed = new StatChild(['stat.stream' => $path], stat_stream_cpu_script(0.2));
var_dump($killed->waitFor("ready\n"));
/* the listener process would clean up after its PHP process: kill both, as a machine crash would */
$listeners = stat_test_listeners_started($killed->pid());
printf("the child has a listener process: %s\n", count($listeners) === 1 ? 'yes' : 'no');
foreach ($listeners as $listener) {
    proc_close(proc_open(['kill', '-9', (string) $listener], [], $unused));
}
proc_terminate($killed->process, 9);
$killed->wait();
foreach ($listeners as $listener) {
    printf("listener %s\n", stat_test_wait_dead($listener) ? 'dead' : 'still alive');
}
clearstatcache();
printf("killed child left a socket: %s\n", @filetype($path));
printf("nobody listens on it: %s\n", @stream_socket_client("unix://$path", $errno, $errstr, 1.0) ? 'no' : 'yes');
var_dump(serves($path));
?>
--EXPECT--
stale file is a socket: socket
nobody listens on it: yes
array(5) {
  ["ready"]=>
  bool(true)
  ["samples from the child"]=>
  bool(true)
  ["exit"]=>
  int(0)
  ["stderr"]=>
  string(0) ""
  ["invalid"]=>
  int(0)
}
the child removed its socket at exit: yes
bool(true)
the child has a listener process: yes
listener dead
killed child left a socket: socket
nobody listens on it: yes
array(5) {
  ["ready"]=>
  bool(true)
  ["samples from the child"]=>
  bool(true)
  ["exit"]=>
  int(0)
  ["stderr"]=>
  string(0) ""
  ["invalid"]=>
  int(0)
}
