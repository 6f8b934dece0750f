--TEST--
stream: clients that read nothing until the process exited get only whole lines (the drain deadline must not cut a line), and a last lost line for what they missed: samples + lost = samples written
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

/*
 * Each client has more backlog than its socket holds, so at exit the drain
 * runs into its deadline with part of a client's buffer unsent. What the
 * kernel already took stays readable after the close; it must end at a line
 * boundary ("the stream never carries a broken line"). Several clients: where
 * the kernel cuts a partial send depends on its buffer chunking.
 */
$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "$dir/stream.sock", 'stat.auto' => '0'], stat_stream_cpu_script(0.5, true, true, 4000));
var_dump($child->waitFor("ready\n"));
$stuck = [];
for ($i = 0; $i < 8; $i++) {
    $stuck[] = stat_test_connect("$dir/stream.sock");
}
$child->send("go\n");
var_dump($child->waitFor("end\n"));
$start = microtime(true);
var_dump($child->wait());
$exit = microtime(true) - $start;
printf("exit within 5 s: %s\n", $exit < 5.0 ? 'yes' : "no ($exit s)");
/* sampling stopped before the counters were printed: the count is final */
$written = stat_stream_counters($child)['samples_written'] ?? null;
$broken = $uncounted = [];
$told = 0;
foreach ($stuck as $i => $socket) {
    stream_set_timeout($socket, 10);
    $data = stream_get_contents($socket);
    [$samples, $lost, $invalid] = stat_test_decode($data);
    if ($data === '' || !str_ends_with($data, "\n") || $invalid) {
        $broken[] = sprintf('client %d: %d bytes, %d samples, ends with %s', $i, strlen($data), count($samples), json_encode(substr($data, -40)));
    }
    $missed = array_sum(array_column($lost, 'count'));
    $told += $missed > 0 ? 1 : 0;
    if (count($samples) + $missed !== $written) {
        $uncounted[] = sprintf('client %d: %d samples + %d lost, %s written', $i, count($samples), $missed, var_export($written, true));
    }
}
var_dump($broken);
var_dump($uncounted);
/* the backlog is larger than a socket holds: the drain deadline left something to tell */
printf("clients told what they missed: %s\n", $told > 0 ? 'some' : 'none');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
exit within 5 s: yes
array(0) {
}
array(0) {
}
clients told what they missed: some
