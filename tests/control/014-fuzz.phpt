--TEST--
control: fuzz of 10^6 messages (seed from STAT_FUZZ_SEED, always printed): extreme and just-out-of-range parameters, random junk and splits across writes, dropped connections; every reply exact, every message counted once, the child samples on
--SKIPIF--
<?php if (!getenv('STAT_TEST_HEAVY')) die('skip set STAT_TEST_HEAVY'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
/*
 * STAT_FUZZ_SEED=N replays a run (the seed is printed first); STAT_FUZZ_MESSAGES
 * sets how many messages are sent (default 10^6, fewer is not this test's claim).
 * The test keeps a model of the live settings and checks each reply against it:
 * replies are written without waiting, so no more than CTL_FUZZ_OUTSTANDING
 * messages are ever unanswered (their replies fit the listener's socket buffer
 * whatever the machine's speed).
 */
require __DIR__ . '/control.inc';

const CTL_CLOCK = 1 << 6;
const CTL_QUERY = 1 << 7;
const CTL_POOL_RATE = 1 << 8;
const CTL_POOL_RATE_MAX = 100000000;
const CTL_FUZZ_OUTSTANDING = 128;
const CTL_STACK_MAX = 256;
const CTL_SAMPLERS_MAX = 1000000;
const CTL_INTERVAL_MIN = 10;
const CTL_INTERVAL_MAX = 10000000;

$seed = getenv('STAT_FUZZ_SEED');
$seed = $seed !== false && $seed !== '' ? (int) $seed : random_int(1, PHP_INT_MAX);
$total = (int) (getenv('STAT_FUZZ_MESSAGES') ?: 1000000);
echo "seed: $seed (STAT_FUZZ_SEED=$seed replays this run)\n";
mt_srand($seed);

$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
$stack = 16;
$worker = new CtlWorker(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => $control, 'stat.interval' => '500',
    'stat.stack' => (string) $stack, 'stat.query' => 'names']);
$start = $worker->report();
$stream = new StatStream("$dir/stream.sock");

function random_bytes_seeded(int $length): string
{
    $bytes = '';
    while (strlen($bytes) < $length) {
        $bytes .= pack('N', mt_rand(0, 0x7FFFFFFF) << 1 | mt_rand(0, 1));
    }
    return substr($bytes, 0, $length);
}
function random_int64(): int
{
    return unpack('q', random_bytes_seeded(8))[1];
}

/* [min, max, ceiling] of each control (src/listener/control.c), the live value each starts from */
$ranges = [
    CTL_AUTO => [0, 1, 1], CTL_SAMPLERS => [0, CTL_SAMPLERS_MAX, CTL_SAMPLERS_MAX],
    CTL_INTERVAL => [CTL_INTERVAL_MIN, CTL_INTERVAL_MAX, CTL_INTERVAL_MAX], CTL_ARGINFO => [0, 1, 1],
    CTL_STACK => [0, $stack, CTL_STACK_MAX], CTL_CLOCK => [0, 1, 1], CTL_QUERY => [0, 1, 2],
    CTL_POOL_RATE => [0, CTL_POOL_RATE_MAX, CTL_POOL_RATE_MAX],
];
$live = [CTL_AUTO => 1, CTL_SAMPLERS => 0, CTL_INTERVAL => 500, CTL_ARGINFO => 0, CTL_STACK => $stack, CTL_CLOCK => 0, CTL_QUERY => 1, CTL_POOL_RATE => 0];
$extremes = [0, 1, -1, 2, PHP_INT_MIN, PHP_INT_MAX, PHP_INT_MIN + 1, PHP_INT_MAX - 1, 0x7FFFFFFF, 0x80000000, -0x80000000, 0xFFFFFFFF];
/* the parameters worth trying for each control: its bounds, one past each, extremes */
$params = [];
foreach ($ranges as $code => [$min, $max, $ceiling]) {
    $params[$code] = array_values(array_unique(array_merge($extremes, [$min, $min - 1, $min + 1, $max, $max + 1, $max - 1, $ceiling, $ceiling + 1])));
}
/* long valid intervals are a real case, but most of the run samples often */
$params[CTL_INTERVAL] = array_merge($params[CTL_INTERVAL], [10, 11, 50, 100, 200, 500, 1000]);
$unknown = [0, 1, 3, 1 << 9, 1 << 10, 1 << 62, CTL_AUTO | CTL_SAMPLERS, CTL_STACK | CTL_CLOCK, -CTL_INTERVAL, -1, PHP_INT_MIN, PHP_INT_MAX];

/* The reply the listener must give to one frame, applying it to the model. */
function ctl_expect(array &$live, array $ranges, int $code, int $param): array
{
    if (!isset($ranges[$code])) {
        return [1, 0];
    }
    [$min, $max, $ceiling] = $ranges[$code];
    if ($param >= $min && $param <= $max) {
        $live[$code] = $param;
        return [0, $param];
    }
    if ($param > $max && $param <= $ceiling) {
        return [3, $max];
    }
    return [2, $live[$code]];
}

function ctl_random_message(array $params, array $unknown): string
{
    $roll = mt_rand(0, 99);
    if ($roll < 80) {
        $code = [CTL_AUTO, CTL_SAMPLERS, CTL_INTERVAL, CTL_ARGINFO, CTL_STACK, CTL_CLOCK, CTL_QUERY, CTL_POOL_RATE][mt_rand(0, 7)];
        $list = $params[$code];
        $param = mt_rand(0, 9) === 0 ? random_int64() : $list[mt_rand(0, count($list) - 1)];
    } elseif ($roll < 95) {
        $code = $unknown[mt_rand(0, count($unknown) - 1)];
        $param = mt_rand(0, 1) ? random_int64() : $params[CTL_AUTO][mt_rand(0, count($params[CTL_AUTO]) - 1)];
    } else {
        return random_bytes_seeded(16);
    }
    return ctl_message($code, $param);
}

$expect = ['applied' => 0, 'invalid' => 0];
$stats = ['messages' => 0, 'junk' => 0, 'writes' => 0, 'connections' => 0, 'partial closes' => 0, 'replies' => 0, 'statuses' => [0, 0, 0, 0]];
$mismatch = null;
$before = $worker->report()['counters'];
$socket = null;
$pending = '';      /* bytes sent on this connection not yet making a whole frame */
$nextRead = microtime(true);
$sampledDuring = 0;

while ($stats['messages'] < $total && $mismatch === null) {
    if ($socket === null) {
        $socket = stat_test_connect($control);
        stream_set_blocking($socket, true);
        $stats['connections']++;
        $pending = '';
    }
    /* a batch: whole messages, now and then junk of a random length that shifts the framing after it */
    $count = mt_rand(1, CTL_FUZZ_OUTSTANDING - 8);
    $bytes = '';
    for ($i = 0; $i < $count; $i++) {
        $bytes .= ctl_random_message($params, $unknown);
        if (mt_rand(0, 199) === 0) {
            $bytes .= random_bytes_seeded(mt_rand(1, 31));
            $stats['junk']++;
        }
    }
    $stats['messages'] += $count;
    /* the frames the listener cuts from this connection's bytes, and their replies */
    $all = $pending . $bytes;
    $whole = strlen($all) - strlen($all) % 16;
    $pending = (string) substr($all, $whole);
    $replies = [];
    for ($at = 0; $at < $whole; $at += 16) {
        [, $code, $param] = unpack('q2', $all, $at);
        $reply = ctl_expect($live, $ranges, $code, $param);
        $replies[] = [$code, $param, $reply];
        $expect[$reply[0] === 0 ? 'applied' : 'invalid']++;
        $stats['statuses'][$reply[0]]++;
    }
    /* written in random pieces: mostly whole, or cut at random places, or a byte at a time */
    $roll = mt_rand(0, 99);
    if ($roll < 50) {
        $pieces = [$bytes];
    } elseif ($roll < 98) {
        $cuts = [];
        for ($i = mt_rand(1, 6); $i > 0; $i--) {
            $cuts[] = mt_rand(1, max(1, strlen($bytes) - 1));
        }
        $cuts = array_values(array_unique($cuts));
        sort($cuts);
        $pieces = [];
        $from = 0;
        foreach ($cuts as $cut) {
            $pieces[] = substr($bytes, $from, $cut - $from);
            $from = $cut;
        }
        $pieces[] = substr($bytes, $from);
        $pieces = array_values(array_filter($pieces, 'strlen'));
    } else {
        $pieces = str_split(substr($bytes, 0, 64), 1);
        if (strlen($bytes) > 64) {
            $pieces[] = substr($bytes, 64);
        }
    }
    foreach ($pieces as $piece) {
        if (!ctl_write($socket, $piece)) {
            $mismatch = 'the listener closed the control connection (seed ' . $seed . ')';
            break 2;
        }
        $stats['writes']++;
    }
    /* every whole frame is answered, in order */
    $want = 16 * count($replies);
    $got = '';
    $deadline = microtime(true) + STAT_TEST_TIMEOUT;
    while (strlen($got) < $want && microtime(true) < $deadline) {
        $read = [$socket];
        $write = $except = null;
        if (@stream_select($read, $write, $except, 1) > 0) {
            $data = fread($socket, $want - strlen($got));
            if ($data === '' || $data === false) {
                break;
            }
            $got .= $data;
        }
    }
    if (strlen($got) !== $want) {
        $mismatch = sprintf('%d of %d replies came (seed %d, message %d)', intdiv(strlen($got), 16), count($replies), $seed, $stats['messages']);
        break;
    }
    foreach ($replies as $i => [$code, $param, $reply]) {
        [, $status, $value] = unpack('q2', $got, 16 * $i);
        if ([$status, $value] !== $reply) {
            $mismatch = sprintf('control %d param %d: reply %d %d, expected %d %d (seed %d, near message %d)',
                $code, $param, $status, $value, $reply[0], $reply[1], $seed, $stats['messages']);
            break 2;
        }
    }
    $stats['replies'] += count($replies);
    /* now and then the connection goes, mid-frame or not */
    if (mt_rand(0, 99) === 0) {
        /* a partial frame: what completes no frame with the bytes still pending (junk) */
        if (mt_rand(0, 1) && strlen($pending) < 15) {
            $partial = random_bytes_seeded(mt_rand(1, 15 - strlen($pending)));
            ctl_write($socket, $partial);
            $pending .= $partial;
        }
        if (strlen($pending) % 16 !== 0) {
            $expect['invalid']++;
            $stats['partial closes']++;
        }
        fclose($socket);
        $socket = null;
    }
    /* the stream is read now and then: samples keep coming while the controls change */
    if (microtime(true) >= $nextRead) {
        $had = count($stream->samples);
        $stream->readUntil(fn(StatStream $s) => count($s->samples) > $had, 0.2);
        $sampledDuring += count($stream->samples) - $had;
        $stream->samples = [];
        $stream->lost = [];
        $nextRead = microtime(true) + 0.5;
    }
}
if ($socket !== null) {
    if (strlen($pending) % 16 !== 0) {
        $expect['invalid']++;
        $stats['partial closes']++;
    }
    fclose($socket);
}
echo "replies as the model says: ", $mismatch ?? 'yes', "\n";
printf("messages sent: %s (at least %d: %s)\n", $stats['messages'] >= $total ? 'all' : $stats['messages'], $total,
    $stats['messages'] >= 1000000 ? 'yes, 10^6 or more' : 'no');
printf("every status seen (applied, unknown, out of range, above max): %s\n", min($stats['statuses']) > 0 ? 'yes' : json_encode($stats['statuses']));
printf("junk, splits, dropped connections, partial frames at close: %s\n",
    $stats['junk'] > 0 && $stats['writes'] > $stats['messages'] / CTL_FUZZ_OUTSTANDING && $stats['connections'] > 1 && $stats['partial closes'] > 0 ? 'yes' : json_encode($stats));

/* the counters: every frame once, applied or invalid, and each partial frame at a close as invalid */
$applied = $before['control_applied'] + $expect['applied'];
$invalid = $before['control_invalid'] + $expect['invalid'];
$state = $worker->await('counters', 'control_invalid', '>=', $invalid);
printf("control_applied as expected: %s\n", $state['counters']['control_applied'] === $applied ? 'yes' : "no ({$state['counters']['control_applied']}, expected $applied; seed $seed)");
printf("control_invalid as expected: %s\n", $state['counters']['control_invalid'] === $invalid ? 'yes' : "no ({$state['counters']['control_invalid']}, expected $invalid; seed $seed)");
/* the live settings are the model's */
$settings = $state['settings'];
$now = ['auto' => (int) $settings['auto'], 'samplers' => $settings['samplers'], 'interval' => $settings['interval'],
    'arginfo' => (int) $settings['arginfo'], 'stack' => $settings['stack'], 'clock' => $settings['clock'] === 'cpu' ? 1 : 0,
    'query' => array_search($settings['query'], ['none', 'names', 'all'], true), 'pool_rate' => $settings['pool_rate']];
$model = array_combine(array_keys($now), array_values($live));
printf("live settings as the model says: %s\n", $now === $model ? 'yes' : json_encode(['live' => $now, 'model' => $model, 'seed' => $seed]));
printf("samples during the fuzz: %s\n", $sampledDuring > 0 ? 'yes' : 'no');

/* back to sampling every 500 us with the startup settings: every reply "applied", samples flow */
$socket = stat_test_connect($control);
$reset = [[CTL_AUTO, 1], [CTL_SAMPLERS, 0], [CTL_INTERVAL, 500], [CTL_ARGINFO, 0], [CTL_STACK, $stack], [CTL_CLOCK, 0], [CTL_QUERY, 1], [CTL_POOL_RATE, 0]];
ctl_write($socket, ctl_messages($reset));
stream_set_timeout($socket, (int) STAT_TEST_TIMEOUT);
$got = '';
while (strlen($got) < 16 * count($reset) && !feof($socket)) {
    $got .= fread($socket, 16 * count($reset) - strlen($got));
}
$ok = strlen($got) === 16 * count($reset);
foreach ($reset as $i => [$code, $param]) {
    $ok = $ok && unpack('q2', $got, 16 * $i) === [1 => 0, 2 => $param];
}
fclose($socket);
printf("startup settings applied again: %s\n", $ok ? 'yes' : bin2hex($got));
$state = $worker->await('counters', 'control_applied', '>=', $applied + count($reset));
printf("samples after the fuzz: %s\n", ctl_sampled_after($stream, $state['elapsed']) ? 'yes' : 'no');
printf("stream lines all valid JSON: %s\n", $stream->invalid === [] ? 'yes' : json_encode(array_slice($stream->invalid, 0, 3)));
[$code, $final] = $worker->finish(STAT_TEST_TIMEOUT, $stream);
var_dump($code);
var_dump($stream->eof, $stream->invalid, $stream->rest(), $worker->stderr());
?>
--EXPECTF--
seed: %d (STAT_FUZZ_SEED=%d replays this run)
replies as the model says: yes
messages sent: all (at least %d: yes, 10^6 or more)
every status seen (applied, unknown, out of range, above max): yes
junk, splits, dropped connections, partial frames at close: yes
control_applied as expected: yes
control_invalid as expected: yes
live settings as the model says: yes
samples during the fuzz: yes
startup settings applied again: yes
samples after the fuzz: yes
stream lines all valid JSON: yes
int(0)
bool(true)
array(0) {
}
string(0) ""
string(0) ""
