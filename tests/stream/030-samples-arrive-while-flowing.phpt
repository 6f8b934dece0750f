--TEST--
stream: while samples flow every one reaches the client, and none waits in the ring long (the listener batches them on a short timer; bounded here at a generous 500 ms, the 10 ms target is bench/listener's)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

/*
 * The listener sleeps while nothing is sampled and batches while samples
 * flow (issue 28): neither may cost a sample. Each line is stamped with when
 * this process read it; a sample's "time" is when it was taken. The bound is
 * loose on purpose (a loaded machine delays this reader too): it catches a
 * listener that sleeps over samples until its heartbeat (a second).
 */
$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '1000'],
    stat_stream_cpu_script(1.0, true, true, 300));
var_dump($child->waitFor("ready\n"));

$socket = stat_test_connect("unix://$dir/stream.sock");
stream_set_blocking($socket, false);
/* what was read: samples as [time, when read] */
$got = (object) ['buffer' => '', 'samples' => [], 'lost' => 0, 'invalid' => 0, 'status' => null];
/* read, stamping every line, until $until() or the deadline */
$read = function (callable $until, float $timeout) use ($socket, $got): bool {
    $deadline = microtime(true) + $timeout;
    while (!$until()) {
        if (microtime(true) >= $deadline) {
            return false;
        }
        $r = [$socket];
        $w = $e = null;
        if (@stream_select($r, $w, $e, 0, 20000) > 0) {
            $data = fread($socket, 1 << 20);
            $now = microtime(true);
            if ($data === '' || $data === false) {
                if (feof($socket)) {
                    return $until();
                }
                continue;
            }
            $got->buffer .= $data;
            while (($end = strpos($got->buffer, "\n")) !== false) {
                $line = json_decode(substr($got->buffer, 0, $end), true);
                $got->buffer = substr($got->buffer, $end + 1);
                if (!is_array($line)) {
                    $got->invalid++;
                } elseif ($line['type'] === 'status') {
                    $got->status = $line;
                } elseif ($line['type'] === 'lost') {
                    $got->lost += $line['count'];
                } else {
                    $got->samples[] = [$line['time'], $now];
                }
            }
        }
    }
    return true;
};
var_dump($read(fn() => $got->status !== null, 10.0));

$child->send("go\n");
/* read while the child samples, so that arrival is stamped as it happens */
$ended = false;
while (!$ended && $read(fn() => false, 0.05) === false) {
    $ended = $child->waitFor("end\n", 0.0);
    if (!$ended && !proc_get_status($child->process)['running']) {
        break;
    }
}
var_dump($ended);
$written = stat_stream_counters($child)['samples_written'] ?? -1;
var_dump($read(fn() => count($got->samples) + $got->lost >= $written, 10.0));
printf("samples written: %s\n", $written >= 300 ? 'at least 300' : $written);
printf("every sample received: %s (lost %d, invalid %d)\n", count($got->samples) === $written ? 'yes' : count($got->samples) . " of $written", $got->lost, $got->invalid);
$late = max(array_map(fn($s) => $s[1] - $s[0], $got->samples) ?: [INF]);
printf("longest wait between a sample and its arrival: %s\n", $late <= 0.5 ? 'within 500 ms' : sprintf('%.3f s', $late));
var_dump($child->wait());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
samples written: at least 300
every sample received: yes (lost 0, invalid 0)
longest wait between a sample and its arrival: within 500 ms
int(0)
