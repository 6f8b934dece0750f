--TEST--
control: query (1 << 7) lowers what a sample's URI keeps of its query string and raises it back, never above the stat.query set at startup (above: refused with that maximum); the status line, stat\settings() and phpinfo() show it live; statq ctl query names|none|all says the same
--SKIPIF--
<?php require __DIR__ . '/../client/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';
require __DIR__ . '/../client/client.inc';

const CTL_QUERY = 1 << 7;
$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
$names = [0 => 'applied', 1 => 'unknown', 2 => 'out of range', 3 => 'above the startup maximum'];

/* The replies to $messages, one write. */
function ask(string $control, array $messages, array $names): void
{
    $socket = stat_test_connect($control);
    fwrite($socket, ctl_messages($messages));
    stream_set_timeout($socket, 10);
    $replies = '';
    while (strlen($replies) < 16 * count($messages) && !feof($socket)) {
        $replies .= fread($socket, 16 * count($messages) - strlen($replies));
    }
    foreach ($messages as $i => [$code, $param]) {
        [, $status, $value] = unpack('q2', substr($replies, 16 * $i, 16)) + [1 => null, 2 => null];
        printf("  query %d -> %s %d\n", $param, $names[$status] ?? "status $status", $value);
    }
    fclose($socket);
}

foreach (['names', 'all'] as $setting) {
    echo "stat.query=$setting:\n";
    $worker = new CtlWorker(['stat.stream' => "unix://$dir/stream-$setting.sock", 'stat.control' => $control, 'stat.query' => $setting]);
    printf("  at start: %s\n", $worker->report()['settings']['query']);
    ask($control, [[CTL_QUERY, 0], [CTL_QUERY, 2], [CTL_QUERY, 1], [CTL_QUERY, 3], [CTL_QUERY, -1]], $names);
    $state = $worker->report();
    $status = new StatStream("$dir/stream-$setting.sock");
    $status->readUntil(fn($s) => $s->status !== null, 10.0);
    $phpinfo = implode("\n", $worker->ask('phpinfo')['phpinfo']);
    printf("  live: stat\\settings() %s, status line %s (query_max %s), phpinfo %s\n", $state['settings']['query'],
        $status->status['settings']['query'] ?? '-', $status->status['settings']['query_max'] ?? '-',
        preg_match('/^query \(live\) => (\w+)$/m', $phpinfo, $m) ? $m[1] : 'missing');
    foreach ([['none'], ['all'], ['names']] as [$word]) {
        [$code, $out, $err] = statq_run(['ctl', '-c', $control, 'query', $word]);
        printf("  statq ctl query %s: exit %d, %s", $word, $code, trim($out . $err) . "\n");
    }
    printf("  then: %s\n", $worker->report()['settings']['query']);
    $worker->finish();
}
[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'query', 'some']);
printf("statq ctl query some: exit %d, %s\n", $code, trim($err));
?>
--EXPECTF--
stat.query=names:
  at start: names
  query 0 -> applied 0
  query 2 -> above the startup maximum 1
  query 1 -> applied 1
  query 3 -> out of range 1
  query -1 -> out of range 1
  live: stat\settings() names, status line names (query_max names), phpinfo names
  statq ctl query none: exit 0, applied query none
  statq ctl query all: exit 1, statq: ctl: unix://%s/control.sock refused query all: above the startup maximum names: raise stat.query in php.ini and restart PHP
  statq ctl query names: exit 0, applied query names
  then: names
stat.query=all:
  at start: all
  query 0 -> applied 0
  query 2 -> applied 2
  query 1 -> applied 1
  query 3 -> out of range 1
  query -1 -> out of range 1
  live: stat\settings() names, status line names (query_max all), phpinfo names
  statq ctl query none: exit 0, applied query none
  statq ctl query all: exit 0, applied query all
  statq ctl query names: exit 0, applied query names
  then: names
statq ctl query some: exit 2, statq: ctl: query must be none, names or all, 'some' given
