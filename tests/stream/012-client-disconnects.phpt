--TEST--
stream: clients that disconnect mid-stream (with unread data, so the kernel resets) cause no SIGPIPE (unix and TCP); the others continue
--INI--
memory_limit=512M
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
/* SIGPIPE back to its default action in the child: a write to a dead socket without MSG_NOSIGNAL would kill it */
$script = str_replace("echo \"ready\\n\";", "if (function_exists('pcntl_signal')) { pcntl_signal(SIGPIPE, SIG_DFL); }\necho \"ready\\n\";",
    stat_stream_cpu_script(1.0, true));

foreach (['unix' => "$dir/stream.sock", 'tcp' => 'tcp://127.0.0.1:' . stat_test_port()] as $transport => $address) {
    echo "$transport:\n";
    $child = new StatChild(['stat.stream' => $address, 'stat.auto' => '0'], $script);
    var_dump($child->waitFor("ready\n"));
    $leavers = [];
    for ($i = 0; $i < 4; $i++) {
        $leavers[] = new StatStream($address);
    }
    $stayer = new StatStream($address);
    $child->send("go\n");

    /* each leaver reads a few samples, then closes without reading what is queued */
    $leftAt = [];
    foreach ($leavers as $i => $leaver) {
        $leaver->readUntil(function ($s) use ($i) { return count($s->samples) >= 20 * ($i + 1); });
        $stayer->readUntil(fn() => false, 0.02);
        $leftAt[] = end($leaver->samples)['elapsed'] ?? INF;
        $leaver->close();
    }
    /* one more connects and leaves at once */
    stat_test_connect($address);

    var_dump(stat_stream_read_while($child, [$stayer], "end\n"));
    /* every sample written, then the exit and EOF */
    [$complete, $code, $eof] = stat_stream_finish($child, [$stayer]);
    var_dump($code);
    var_dump($complete && $eof);
    $counters = stat_stream_counters($child);
    printf("end marker printed: %s\n", str_ends_with($child->stdout(), "end\n") ? 'yes' : 'no');
    var_dump($child->stderr(), $stayer->invalid, $stayer->lost);
    $after = array_filter($stayer->samples, fn($s) => $s['elapsed'] > max($leftAt));
    printf("the stayer got samples after the last leaver left: %s\n", count($after) > 0 ? 'yes' : 'no');
    printf("the stayer got every sample: %s\n", count($stayer->samples) === $counters['samples_written'] ? 'yes' : 'no (' . count($stayer->samples) . " of {$counters['samples_written']})");
    printf("leavers were dropped: %s\n", $counters['clients_total'] === 6 && $counters['clients_connected'] === 1 ? 'yes' : "no (total {$counters['clients_total']}, connected {$counters['clients_connected']})");
    /* the decoded samples of one transport are not kept while the next is read (a slow machine takes many) */
    unset($after, $stayer, $leavers, $leaver);
}
?>
--EXPECT--
unix:
bool(true)
bool(true)
int(0)
bool(true)
end marker printed: yes
string(0) ""
array(0) {
}
array(0) {
}
the stayer got samples after the last leaver left: yes
the stayer got every sample: yes
leavers were dropped: yes
tcp:
bool(true)
bool(true)
int(0)
bool(true)
end marker printed: yes
string(0) ""
array(0) {
}
array(0) {
}
the stayer got samples after the last leaver left: yes
the stayer got every sample: yes
leavers were dropped: yes
