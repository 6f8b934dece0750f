--TEST--
pool: the CLI server (php -S), alone and with PHP_CLI_SERVER_WORKERS=2: samples carry each request's pid, method, URI and script
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip([])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$dir = stat_pool_dir();
mkdir("$dir/docroot");
file_put_contents("$dir/docroot/work.php", stat_pool_busy(0.2, 'echo getmypid();'));

function serve(string $dir, string $name, array $env): array
{
    $port = stat_test_port();
    $argv = stat_test_command(['stat.stream' => "unix://$dir/$name.sock", 'stat.interval' => '200', 'stat.query' => 'all'], ['-S', "127.0.0.1:$port", '-t', "$dir/docroot"]);
    $server = stat_pool_spawn($argv, "$dir/$name.out", $env);
    $stream = new StatPoolStream("$dir/$name.sock");
    $up = stat_pool_until(function () use ($port) {
        $socket = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 1.0);
        return $socket ? fclose($socket) : false;
    });
    $list = [];
    for ($i = 0; $i < 6; $i++) {
        $list[] = [$i % 3 === 2 ? 'POST' : 'GET', "/work.php?$name=$i&q=" . ($i * 7), $i % 3 === 2 ? "v=$i" : ''];
    }
    $responses = stat_pool_http($port, $list, 2, [$stream, 'pump']);
    $servedBy = [];
    foreach ($responses as $i => [$status, $body]) {
        $servedBy[$list[$i][1]] = $status === 200 ? (int) $body : 0;
    }
    $complete = $stream->readUntil(fn($s) => count(array_filter($list, fn($r) => $s->forUri($r[1]))) === count($list), 10.0);
    $wrong = [];
    foreach ($stream->samples as $sample) {
        $r = $sample['request'];
        $uri = $r['uri'] ?? '-';
        $i = array_search($uri, array_column($list, 1), true);
        if ($i === false || $r['pid'] !== $servedBy[$uri] || ($r['method'] ?? null) !== $list[$i][0] || ($r['path'] ?? null) !== "$dir/docroot/work.php") {
            $wrong[] = json_encode($r);
        }
    }
    return [$up && !in_array(0, $servedBy, true), $complete, array_values(array_unique($wrong)), count(array_unique($servedBy)), $stream];
}

[$up, $complete, $wrong, $pids, $stream] = serve($dir, 'single', []);
printf("single: answered %s, every request sampled %s, one pid %s\n", $up ? 'yes' : 'no', $complete ? 'yes' : 'no', $pids === 1 ? 'yes' : 'no');
var_dump($wrong, $stream->invalid);

[$up, $complete, $wrong, $pids, $stream] = serve($dir, 'workers', ['PHP_CLI_SERVER_WORKERS' => '2']);
printf("workers: answered %s, every request sampled %s, several pids %s\n", $up ? 'yes' : 'no', $complete ? 'yes' : 'no', $pids >= 2 ? "yes" : "no ($pids)");
var_dump($wrong, $stream->invalid);
?>
--EXPECT--
single: answered yes, every request sampled yes, one pid yes
array(0) {
}
array(0) {
}
workers: answered yes, every request sampled yes, several pids yes
array(0) {
}
array(0) {
}
