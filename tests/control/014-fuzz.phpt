--TEST--
control: bounded fuzz (~3 s) of random messages, random lengths and dropped connections: counted exactly, the child survives and streams valid JSON
--SKIPIF--
<?php if (!getenv('STAT_TEST_HEAVY')) die('skip set STAT_TEST_HEAVY'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
$worker = new CtlWorker(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => $control, 'stat.interval' => '500']);
$start = $worker->report();
$stack = $start['settings']['stack'];
$stream = new StatStream("$dir/stream.sock");
$seed = random_int(1, PHP_INT_MAX);
mt_srand($seed);

/* all randomness from mt_rand, so that the seed printed on a failure replays the same bytes */
function random_string(int $length): string {
    $bytes = '';
    while (strlen($bytes) < $length) {
        $bytes .= pack('N', mt_rand(0, 0xFFFFFFFF));
    }
    return substr($bytes, 0, $length);
}
function random_int64(): int {
    return unpack('q', random_string(8))[1];
}
/* Whether the server must apply a 16-byte frame: true, false, or null where the spec leaves it open. */
function frame_valid(string $frame, int $stack): ?bool {
    [$code, $param] = array_values(unpack('q2', $frame));
    switch ($code) {
        case CTL_AUTO:
        case CTL_ARGINFO:
            return $param === 0 || $param === 1;
        case CTL_SAMPLERS:
            /* no upper bound in the spec: a very large limit may be taken or refused */
            return $param < 0 ? false : ($param <= 1000000 ? true : null);
        case CTL_INTERVAL:
            return $param >= 10 && $param <= 10000000;
        case CTL_STACK:
            return $param >= 0 && $param <= $stack;
        default:
            return false;
    }
}
function random_message(): string {
    $codes = [CTL_AUTO, CTL_SAMPLERS, CTL_INTERVAL, CTL_ARGINFO, CTL_STACK, random_int64(), mt_rand(-64, 64)];
    $code = $codes[mt_rand(0, count($codes) - 1)];
    $params = [0, 1, 2, -1, 9, 10, mt_rand(10, 5000), mt_rand(-1000000000, 1000000000), random_int64(), PHP_INT_MAX, PHP_INT_MIN];
    $param = $params[mt_rand(0, count($params) - 1)];
    if ($code === CTL_INTERVAL && $param > 5000 && $param <= 10000000) {
        /* long valid intervals stall sampling until their tick (see 013-interval-shorten): out of range instead */
        $param += 10000000;
    }
    return ctl_message($code, $param);
}

$expect = ['valid' => 0, 'invalid' => 0, 'open' => 0];
$sent = ['messages' => 0, 'odd lengths' => 0, 'connections' => 0, 'bytes' => 0];
/* what the server must count for all the bytes one connection carried */
$account = function (string $bytes) use (&$expect, $stack) {
    $whole = strlen($bytes) - strlen($bytes) % 16;
    foreach ($whole ? str_split(substr($bytes, 0, $whole), 16) : [] as $frame) {
        $valid = frame_valid($frame, $stack);
        $expect[$valid === null ? 'open' : ($valid ? 'valid' : 'invalid')]++;
    }
    if ($whole !== strlen($bytes)) {
        $expect['invalid']++;
    }
};

$socket = null;
$carried = '';
$deadline = microtime(true) + 3.0;
$nextRead = 0.0;
while (microtime(true) < $deadline) {
    if ($socket === null) {
        $socket = stat_test_connect($control);
        $sent['connections']++;
        $carried = '';
    }
    /* a message of 16 bytes, or now and then one of a random length */
    $message = random_message();
    if (mt_rand(0, 9) === 0) {
        $message = substr($message . random_string(16), 0, mt_rand(1, 31));
        $sent['odd lengths']++;
    }
    $sent['messages']++;
    /* in pieces of random size */
    $pieces = mt_rand(0, 3) === 0 ? str_split($message, mt_rand(1, 8)) : [$message];
    foreach ($pieces as $piece) {
        if (!ctl_write($socket, $piece)) {
            echo "write failed: the child closed the control connection\n";
            break 2;
        }
        $carried .= $piece;
    }
    $sent['bytes'] += strlen($message);
    /* random connection drops, mid-message or not */
    if (mt_rand(0, 49) === 0) {
        if (mt_rand(0, 1)) {
            $partial = substr(random_message(), 0, mt_rand(1, 15));
            ctl_write($socket, $partial);
            $carried .= $partial;
        }
        fclose($socket);
        $account($carried);
        $socket = null;
    }
    if (microtime(true) >= $nextRead) {
        $once = 0;
        $stream->readUntil(function () use (&$once) { return $once++ > 0; }, 1.0);
        $nextRead = microtime(true) + 0.05;
    }
}
if ($socket !== null) {
    fclose($socket);
    $account($carried);
}

/* every frame the server got must be counted, once: wait for the count (each report is a round trip) */
$total = $expect['valid'] + $expect['invalid'] + $expect['open'];
$deadline = microtime(true) + 20;
do {
    $state = $worker->report();
    $counted = $state['counters']['control_applied'] + $state['counters']['control_invalid'];
} while ($counted < $total && microtime(true) < $deadline);
printf("random messages sent: %d (more than 1000: %s)\n", $sent['messages'], $sent['messages'] > 1000 ? 'yes' : 'no');
printf("odd lengths, dropped connections: %s\n", $sent['odd lengths'] > 0 && $sent['connections'] > 1 ? 'yes' : 'no');
printf("every frame counted once: %s\n", $counted === $total ? 'yes' : "no ($counted of $total; seed $seed)");
$applied = $state['counters']['control_applied'];
printf("applied as the spec says: %s\n", $applied >= $expect['valid'] && $applied <= $expect['valid'] + $expect['open']
    ? 'yes' : "no ($applied, expected {$expect['valid']} + up to {$expect['open']}; seed $seed)");

/* then a valid message on a fresh connection still applies */
ctl_send($control, ctl_message(CTL_INTERVAL, 500));
$state = $worker->await('counters', 'control_applied', '>=', $applied + 1);
printf("child alive, interval 500 applied: %s\n", $state['met'] && $state['settings']['interval'] === 500 ? 'yes' : 'no');
printf("samples after the fuzz: %s\n", ctl_sampled_after($stream, $state['elapsed']) ? 'yes' : 'no');
[$code, $final] = $worker->finish(STAT_TEST_TIMEOUT, $stream);
var_dump($code);
var_dump($stream->eof, $stream->invalid, $stream->rest(), $worker->stderr());
?>
--EXPECTF--
random messages sent: %d (more than 1000: yes)
odd lengths, dropped connections: yes
every frame counted once: yes
applied as the spec says: yes
child alive, interval 500 applied: yes
samples after the fuzz: yes
int(0)
bool(true)
array(0) {
}
string(0) ""
string(0) ""
