--TEST--
stream and control on tcp://0.0.0.0 (stat.remote=On, stat.secret): a client is served only after the secret's line; none (the client's end, or nothing sent in time), a wrong one or a line too long is refused in the socket's terms (a refused line; a reply {4, 0}) and closed, and counted (clients_denied); clients waiting for their secret, even 70 that send nothing, hold no one up; statq takes the secret with --secret-file (status, record, ctl), says why without it, and refuses it for a unix socket
--SKIPIF--
<?php require __DIR__ . '/../client/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../control/control.inc';
require __DIR__ . '/../client/client.inc';

$dir = stat_test_dir();
$secret = base64_encode(random_bytes(32));
file_put_contents("$dir/secret", "$secret\n");
chmod("$dir/secret", 0600);
file_put_contents("$dir/wrong", base64_encode(random_bytes(32)) . "\n");
chmod("$dir/wrong", 0600);
$worker = new CtlWorker(['stat.stream' => 'tcp://0.0.0.0:0', 'stat.control' => 'tcp://0.0.0.0:0', 'stat.interval' => '1000',
    'stat.remote' => 'On', 'stat.secret' => "$dir/secret"]);
$settings = $worker->report()['settings'];
/* the sockets listen on every interface; this host reaches them on 127.0.0.1, and a socket bound for others asks everyone */
$stream = str_replace('0.0.0.0', '127.0.0.1', $settings['stream']);
$control = str_replace('0.0.0.0', '127.0.0.1', $settings['control']);
printf("listening: %s, %s\n", preg_replace('/:\d+$/', ':PORT', $settings['stream']), preg_replace('/:\d+$/', ':PORT', $settings['control']));

/* A stream connection after $send (then our end closed when $close): its first line, and whether it ends there. */
function stream_first(string $address, ?string $send, bool $close): string
{
    $socket = stat_test_connect($address);
    if ($send !== null) {
        fwrite($socket, $send);
    }
    if ($close) {
        stream_socket_shutdown($socket, STREAM_SHUT_WR);
    }
    stream_set_timeout($socket, (int) STAT_TEST_TIMEOUT);
    $line = json_decode((string) fgets($socket), true);
    $type = $line['type'] ?? 'nothing';
    if ($type === 'refused') {
        $end = fread($socket, 1) === '' && feof($socket) ? ', then closed' : ', not closed';
        return "refused ({$line['reason']})$end";
    }
    fclose($socket);
    return $type;
}

echo "stream:\n";
printf("  nothing, our end closed: %s\n", stream_first($stream, null, true));
printf("  a wrong secret: %s\n", stream_first($stream, "wrong-secret-0123456789\n", false));
printf("  the secret without its newline, end closed: %s\n", stream_first($stream, $secret, true));
printf("  2000 bytes, no newline: %s\n", stream_first($stream, str_repeat('x', 2000), false));
printf("  the secret: %s\n", stream_first($stream, "$secret\n", false));
printf("  the secret, CRLF: %s\n", stream_first($stream, "$secret\r\n", false));

/* 70 connections that send nothing: the oldest make room, a client with the secret is served meanwhile */
$silent = [];
for ($i = 0; $i < 70; $i++) {
    $silent[] = stat_test_connect($stream);
}
$served = new StatStream($stream);
fwrite($served->socket, "$secret\n");
$served->readUntil(fn($s) => count($s->samples) >= 3);
printf("  with 70 silent connections held: served, %s\n", $served->status !== null && count($served->samples) >= 3 ? 'status line and samples' : 'no');
$refused = 0;
foreach ($silent as $socket) {
    stream_set_timeout($socket, (int) STAT_TEST_TIMEOUT);
    $line = json_decode((string) fgets($socket), true);
    $refused += ($line['type'] ?? '') === 'refused' && fread($socket, 1) === '' && feof($socket);
    fclose($socket);
}
printf("  the 70 silent ones: %d refused and closed (to make room or after their time)\n", $refused);
$served->close();

echo "control:\n";
/* $send, then our end closed: the replies read until the end */
function control_replies(string $address, string $send): string
{
    $socket = stat_test_connect($address);
    fwrite($socket, $send);
    stream_socket_shutdown($socket, STREAM_SHUT_WR);
    stream_set_timeout($socket, (int) STAT_TEST_TIMEOUT);
    $replies = [];
    while (strlen($reply = (string) fread($socket, 16)) === 16) {
        $replies[] = implode(' ', unpack('q2', $reply));
    }
    fclose($socket);
    return json_encode($replies);
}
$message = ctl_message(CTL_INTERVAL, 250);
printf("  messages, no secret: %s\n", control_replies($control, $message . ctl_message(CTL_INTERVAL, 10)));
printf("  a wrong secret, then a message: %s\n", control_replies($control, "wrong-secret-0123456789\n" . $message));
printf("  interval still: %d\n", $worker->report()['settings']['interval']);
printf("  the secret, then two messages in the same write: %s\n", control_replies($control, "$secret\n" . $message . ctl_message(CTL_ARGINFO, 1)));
printf("  interval now: %d\n", $worker->await('settings', 'arginfo', '==', true)['settings']['interval']);

echo "statq:\n";
foreach ([
    ['status', '-s', $stream],
    ['status', '-s', $stream, '--secret-file', "$dir/wrong"],
    ['status', '-s', $stream, '--secret-file', "$dir/secret"],
    ['record', '-s', $stream, '--secret-file', "$dir/secret", '--samples', '5', '-o', "$dir/five.jsonl"],
    ['ctl', '-c', $control, 'interval', '500'],
    ['ctl', '-c', $control, '--secret-file', "$dir/secret", 'interval', '500'],
    ['ctl', '-c', "unix://$dir/control.sock", '--secret-file', "$dir/secret", 'interval', '500'],
] as $args) {
    [$code, $out, $err] = statq_run($args);
    $said = $code === 0 ? (str_starts_with($out, 'stat ') ? 'the status' : trim($out)) : trim(str_replace([$dir, $stream, $control], ['DIR', 'STREAM', 'CONTROL'], $err));
    printf("  %s: exit %d, %s\n", implode(' ', str_replace([$dir, $stream, $control], ['DIR', 'STREAM', 'CONTROL'], $args)), $code, $said);
}
[$samples] = stat_test_decode((string) @file_get_contents("$dir/five.jsonl"));
printf("  recorded: %d samples\n", count($samples));

$counters = $worker->report()['counters'];
$status = new StatStream($stream);
fwrite($status->socket, "$secret\n");
$status->readUntil(fn($s) => $s->status !== null);
/* refused: 4 stream connections, the 70 silent ones, 2 control connections, 3 statq runs */
printf("clients_denied: %d, in the status line: %d\n", $counters['clients_denied'], $status->status['counters']['clients_denied'] ?? -1);
$status->close();
[$code] = $worker->finish();
var_dump($code, $worker->stderr());
?>
--EXPECT--
listening: tcp://0.0.0.0:PORT, tcp://0.0.0.0:PORT
stream:
  nothing, our end closed: refused (this socket serves a client only after the shared secret (stat.secret): none or a wrong one was sent (statq: --secret-file)), then closed
  a wrong secret: refused (this socket serves a client only after the shared secret (stat.secret): none or a wrong one was sent (statq: --secret-file)), then closed
  the secret without its newline, end closed: refused (this socket serves a client only after the shared secret (stat.secret): none or a wrong one was sent (statq: --secret-file)), then closed
  2000 bytes, no newline: refused (this socket serves a client only after the shared secret (stat.secret): none or a wrong one was sent (statq: --secret-file)), then closed
  the secret: status
  the secret, CRLF: status
  with 70 silent connections held: served, status line and samples
  the 70 silent ones: 70 refused and closed (to make room or after their time)
control:
  messages, no secret: ["4 0"]
  a wrong secret, then a message: ["4 0"]
  interval still: 1000
  the secret, then two messages in the same write: ["0 250","0 1"]
  interval now: 250
statq:
  status -s STREAM: exit 1, statq: status: STREAM refused the connection: this socket serves a client only after the shared secret (stat.secret): none or a wrong one was sent (statq: --secret-file)
  status -s STREAM --secret-file DIR/wrong: exit 1, statq: status: STREAM refused the connection: this socket serves a client only after the shared secret (stat.secret): none or a wrong one was sent (statq: --secret-file)
  status -s STREAM --secret-file DIR/secret: exit 0, the status
  record -s STREAM --secret-file DIR/secret --samples 5 -o DIR/five.jsonl: exit 0, 
  ctl -c CONTROL interval 500: exit 1, statq: ctl: CONTROL refused the connection: it serves a client only after the shared secret (stat.remote, stat.secret), and none or a wrong one was sent: give its file with --secret-file; nothing was applied
  ctl -c CONTROL --secret-file DIR/secret interval 500: exit 0, applied interval 500
  ctl -c unix://DIR/control.sock --secret-file DIR/secret interval 500: exit 1, statq: ctl: --secret-file is for a TCP socket opened with stat.remote; unix://DIR/control.sock is a unix socket, which takes no secret (its file's permissions say who may connect)
  recorded: 5 samples
clients_denied: 79, in the status line: 79
int(0)
string(0) ""
