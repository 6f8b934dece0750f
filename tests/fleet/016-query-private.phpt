--TEST--
fleet: a php-cgi request for /reset?token=s3cr3tT0k&user=alice: by default (stat.query unset) no sample carries its query string, not in the stream, statq record, fold and flame --group uri, pprof's labels, nor ship's Redis entries; stat.query=names keeps the names (/reset?token&user), stat.query=all everything, in each of them
--SKIPIF--
<?php
require __DIR__ . '/../pool/pool.inc';
require __DIR__ . '/fleet.inc';
if ($reason = fleet_skip_reason(['redis-server'])) die("skip $reason");
if ($why = stat_pool_skip(['cgi'])) die("skip $why");
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../pool/pool.inc';
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
statq_binary();
$redis = new FleetRedis();
$uri = '/reset?token=s3cr3tT0k&user=alice';

/* it works only once its three readers are connected (the direct one, record, ship), at most 20 s */
$script = "$dir/reset.php";
file_put_contents($script, "<?php\n\$until = microtime(true) + 20;\n"
    . "while (stat\\counters()['clients_total'] < 3 && microtime(true) < \$until) { usleep(1000); }\n?>" . stat_pool_busy(0.5));

/* What each output shows of the request's URI: the URIs it names, or whether the token is in it. */
function shown(string $text, string $label): string
{
    $token = str_contains($text, 's3cr3tT0k') ? 'token present' : 'token absent';
    $forms = [];
    foreach (['/reset?token=s3cr3tT0k&user=alice', '/reset?token&user', '/reset'] as $form) {
        if (str_contains($text, $form)) {
            $forms[] = $form;
            break;
        }
    }
    return sprintf("  %-22s %s, %s\n", "$label:", $token, $forms ? $forms[0] : 'no /reset');
}

foreach ([null, 'names', 'all'] as $setting) {
    $label = $setting ?? 'unset';
    echo "stat.query $label:\n";
    $socket = "$dir/$label.sock";
    $ini = stat_pool_ini(['stat.stream' => "unix://$socket", 'stat.interval' => '1000', 'stat.query' => $setting], "$label.ini");
    $env = ['PATH' => '/usr/bin:/bin', 'PHP_INI_SCAN_DIR' => '', 'REDIRECT_STATUS' => '200', 'REQUEST_METHOD' => 'GET',
        'SCRIPT_FILENAME' => $script, 'SCRIPT_NAME' => '/reset.php', 'REQUEST_URI' => $uri, 'QUERY_STRING' => 'token=s3cr3tT0k&user=alice'];
    $cgi = proc_open([stat_pool_binary('cgi'), '-c', $ini], [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/$label.out", 'w'],
        2 => ['file', "$dir/$label.out", 'a']], $pipes, $dir, $env + stat_pool_sanitizer_env());
    StatPoolProcesses::$handles[] = $cgi;
    $stream = new StatPoolStream($socket);
    $record = new Statq(['record', '-s', $socket, '--backlog', '-o', "$dir/$label.jsonl"]);
    $ship = new Statq(['ship', '-s', $socket, '--backlog', '--redis', $redis->url(), '--stream', "stat:$label"]);
    $stream->readAll(30.0);
    [$recordCode, $shipCode] = [$record->wait(), $ship->wait()];
    if ($recordCode !== 0 || $shipCode !== 0 || count($stream->samples) < 10) {
        printf("  record: exit %d %s; ship: exit %d %s; %d samples; php-cgi: %s\n", $recordCode, $record->stderr(), $shipCode,
            $ship->stderr(), count($stream->samples), @file_get_contents("$dir/$label.out"));
    }

    $uris = array_values(array_unique(array_map(fn($s) => $s['request']['uri'] ?? '-', $stream->samples)));
    printf("  %-22s %s\n", 'stream, every uri:', json_encode($uris, JSON_UNESCAPED_SLASHES));
    echo shown(implode("\n", array_map('json_encode', $stream->samples)), 'stream');
    echo shown((string) @file_get_contents("$dir/$label.jsonl"), 'statq record');
    [, $out] = statq_run(['fold', '-f', "$dir/$label.jsonl", '--group', 'uri']);
    echo shown($out, 'fold --group uri');
    statq_run(['flame', '-f', "$dir/$label.jsonl", '--group', 'uri', '-o', "$dir/$label.html"]);
    /* (the page escapes '&' inside its data: what it shows is the data, decoded) */
    echo shown(json_encode(statq_flame_data((string) @file_get_contents("$dir/$label.html")), JSON_UNESCAPED_SLASHES), 'flame --group uri');
    statq_run(['pprof', '-f', "$dir/$label.jsonl", '-o', "$dir/$label.pb.gz"]);
    echo shown((string) @gzdecode((string) @file_get_contents("$dir/$label.pb.gz")), 'pprof');
    $lines = [];
    foreach ($redis->entries("stat:$label") as $fields) {
        if ($fields['type'] === 'samples') {
            $lines = array_merge($lines, fleet_entry_lines($fields));
        }
    }
    echo shown(implode("\n", $lines), 'ship\'s Redis entries');
}
?>
--EXPECT--
stat.query unset:
  stream, every uri:     ["/reset"]
  stream:                token absent, /reset
  statq record:          token absent, /reset
  fold --group uri:      token absent, /reset
  flame --group uri:     token absent, /reset
  pprof:                 token absent, /reset
  ship's Redis entries:  token absent, /reset
stat.query names:
  stream, every uri:     ["/reset?token&user"]
  stream:                token absent, /reset?token&user
  statq record:          token absent, /reset?token&user
  fold --group uri:      token absent, /reset?token&user
  flame --group uri:     token absent, /reset?token&user
  pprof:                 token absent, /reset?token&user
  ship's Redis entries:  token absent, /reset?token&user
stat.query all:
  stream, every uri:     ["/reset?token=s3cr3tT0k&user=alice"]
  stream:                token present, /reset?token=s3cr3tT0k&user=alice
  statq record:          token present, /reset?token=s3cr3tT0k&user=alice
  fold --group uri:      token present, /reset?token=s3cr3tT0k&user=alice
  flame --group uri:     token present, /reset?token=s3cr3tT0k&user=alice
  pprof:                 token present, /reset?token=s3cr3tT0k&user=alice
  ship's Redis entries:  token present, /reset?token=s3cr3tT0k&user=alice
