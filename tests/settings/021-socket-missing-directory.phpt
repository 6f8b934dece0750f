--TEST--
settings: a socket in a directory that does not exist gives one warning naming the setting, the path and the reason, and stat runs without that socket (the other one serves); a unix path of 107 bytes (the most sun_path holds) works, 108 does not
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../control/control.inc';

$dir = stat_test_dir();
$missing = "$dir/no/such/dir";
foreach (['stat.stream', 'stat.control'] as $name) {
    $other = $name === 'stat.stream' ? 'stat.control' : 'stat.stream';
    $worker = new CtlWorker([$name => "unix://$missing/x.sock", $other => "unix://$dir/other.sock", 'stat.interval' => '500']);
    $state = $worker->report();
    $lines = array_values(array_filter(explode("\n", $worker->stderr()), 'strlen'));
    $warning = $lines[0] ?? '';
    printf("%s: one warning: %s, names it: %s, the path: %s, why: %s, what stat does: %s\n", $name, count($lines) === 1 ? 'yes' : json_encode($lines),
        str_contains($warning, "$name: cannot listen on unix://$missing/x.sock") ? 'yes' : 'no',
        str_contains($warning, "bind($missing/x.sock)") ? 'yes' : 'no',
        str_contains($warning, 'No such file or directory') ? 'yes' : 'no',
        str_contains($warning, $name === 'stat.stream' ? 'stat runs without a stream socket' : 'stat runs without a control socket') ? 'yes' : $warning);
    $key = $name === 'stat.stream' ? 'stream' : 'control';
    printf("  settings: %s '%s', the other serves: %s, nothing created: %s\n", $key, $state['settings'][$key],
        $state['settings']['listener']['state'] === 'serving' && file_exists("$dir/other.sock") ? 'yes' : 'no', file_exists("$dir/no") ? 'no' : 'yes');
    if ($name === 'stat.control') {
        $stream = new StatStream("$dir/other.sock");
        printf("  samples on the stream: %s\n", $stream->readUntil(fn(StatStream $s) => count($s->samples) >= 3) ? 'yes' : 'no');
        $worker->finish(STAT_TEST_TIMEOUT, $stream);
        printf("  stream lines valid: %s\n", $stream->invalid === [] && $stream->rest() === '' ? 'yes' : 'no');
    } else {
        ctl_send("unix://$dir/other.sock", ctl_message(CTL_INTERVAL, 300));
        printf("  control applies: %s\n", $worker->await('settings', 'interval', '==', 300)['met'] ? 'yes' : 'no');
        $worker->finish();
    }
    stat_test_wait_gone("$dir/other.sock");
}

/* sun_path holds 107 bytes and the NUL: a path of exactly 107 bytes is taken, one more is refused with a warning */
$sub = "$dir/" . str_repeat('d', max(1, 100 - strlen($dir)));
mkdir($sub);
foreach ([107, 108] as $length) {
    $path = $sub . '/' . str_repeat('s', $length - strlen($sub) - 1);
    $worker = new CtlWorker(['stat.stream' => "unix://$path", 'stat.interval' => '500']);
    $state = $worker->report();
    $stderr = trim($worker->stderr());
    if ($length === 107) {
        $stream = new StatStream($path);
        printf("path of %d bytes: settings %s, samples: %s, warnings: %s\n", strlen($path), $state['settings']['stream'] === "unix://$path" ? 'name it' : 'do not name it',
            $stream->readUntil(fn(StatStream $s) => count($s->samples) >= 3) ? 'yes' : 'no', $stderr === '' ? 'none' : $stderr);
        $worker->finish(STAT_TEST_TIMEOUT, $stream);
    } else {
        printf("path of %d bytes: settings stream '%s', warning: %s\n", strlen($path), $state['settings']['stream'],
            str_contains($stderr, "stat.stream: the unix socket path is 108 bytes, longer than the 107 a socket address holds") ? 'says so' : $stderr);
        $worker->finish();
    }
}
?>
--EXPECT--
stat.stream: one warning: yes, names it: yes, the path: yes, why: yes, what stat does: yes
  settings: stream '', the other serves: yes, nothing created: yes
  control applies: yes
stat.control: one warning: yes, names it: yes, the path: yes, why: yes, what stat does: yes
  settings: control '', the other serves: yes, nothing created: yes
  samples on the stream: yes
  stream lines valid: yes
path of 107 bytes: settings name it, samples: yes, warnings: none
path of 108 bytes: settings stream '', warning: says so
