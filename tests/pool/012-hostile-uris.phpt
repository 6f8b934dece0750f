--TEST--
pool: hostile requests through nginx and php-fpm (quotes, backslashes, control characters, invalid UTF-8, a 64 KiB URI, a hostile script name): every stream line is valid JSON, URIs cut at 4096 bytes, invalid UTF-8 replaced by U+FFFD
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '2'], [], true, ['large_client_header_buffers 4 256k;']);
$script = stat_pool_busy(0.2, 'echo getmypid(), " ", bin2hex($_SERVER["REQUEST_URI"]), " ", bin2hex($_SERVER["SCRIPT_NAME"]), " ", bin2hex($_SERVER["QUERY_STRING"]);');
$pool->script('any.php', $script);
$hostileName = "h\"\\\x01\xff.php";
$pool->script($hostileName, $script);
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);

$controls = '';
for ($c = 1; $c < 0x20; $c++) {
    $controls .= sprintf('%%%02x', $c);
}
$requests = [
    'quotes and backslashes, raw' => '/any/q"uote\\back?id=1&x="y"\\z',
    'control characters, encoded' => "/any/c$controls?id=2&q=$controls",
    'NUL, encoded in the query' => '/any/nul?id=3&q=%00end',
    'invalid UTF-8, encoded' => '/any/bad%ff%fe?id=4&q=%ff%fe',
    'invalid UTF-8, raw' => "/any/raw\xff\xfe?id=5&q=\xff\xfe",
    'valid UTF-8, raw' => "/any/\xc3\xa9t\xc3\xa9?id=6&q=\xe2\x82\xac",
    '30000-byte query' => '/any/long?id=7&q=' . str_repeat('a', 30000),
    '16 KiB path' => '/any/' . str_repeat('p', 16384) . '?id=8',
    'hostile script name' => '/h%22%5C%01%FF.php?id=9',
];
/* nginx refuses to pass more than 64 KiB of FastCGI params (the URI is in several of them): a 64 KiB URI goes to php -S below */
$refused = [
    'NUL, encoded in the path' => '/any/nul%00x?id=10',
    '64 KiB query' => '/any/long?id=11&q=' . str_repeat('a', 65536),
];
$list = array_map(fn($uri) => ['GET', $uri], array_values($requests));
$responses = stat_pool_http($pool->port, $list, 2, [$stream, 'pump']);
$names = array_keys($requests);
$seen = [];
foreach ($responses as $i => [$status, $body]) {
    $seen[$names[$i]] = ['status' => $status, 'pid' => (int) $body];
}
foreach (stat_pool_http($pool->port, array_map(fn($uri) => ['GET', $uri], array_values($refused))) as $i => [$status]) {
    printf("%s: HTTP %d\n", array_keys($refused)[$i], $status);
}
printf("nginx says the FastCGI record is too big: %s\n", strpos((string) file_get_contents("$pool->dir/nginx.log"), 'fastcgi request record is too big') !== false ? 'yes' : 'no');

foreach ($seen as $name => $facts) {
    printf("%s: HTTP %d\n", $name, $facts['status']);
}

/* the samples of each request: by the worker that served it and its id= in the query */
$find = function ($s, string $name, int $id) use (&$seen) {
    /* the 16 KiB path is cut before its query: it is the one starting /any/ppp */
    $match = $name === '16 KiB path' ? fn($uri) => strncmp($uri, '/any/ppp', 8) === 0 : fn($uri) => preg_match("/[?&]id=$id(&|$)/", $uri);
    return array_values(array_filter($s->samples, fn($x) => $x['request']['pid'] === $seen[$name]['pid'] && $match($x['request']['uri'] ?? '')));
};
$ok = $stream->readUntil(function ($s) use ($find, $names) {
    foreach ($names as $i => $name) {
        if (!$find($s, $name, $i + 1)) {
            return false;
        }
    }
    return true;
}, 15.0);
var_dump($ok);
foreach ($names as $i => $name) {
    $samples = $find($stream, $name, $i + 1);
    $uris = array_unique(array_map(fn($x) => $x['request']['uri'], $samples));
    $paths = array_unique(array_map(fn($x) => $x['request']['path'] ?? '-', $samples));
    $uri = (string) reset($uris);
    $shown = strlen($uri) > 80 ? substr($uri, 0, 40) . '...' . substr($uri, -20) . ' (' . strlen($uri) . ' bytes)' : $uri;
    printf("%s: %d uri, %s\n", $name, count($uris), json_encode($shown, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE));
    printf("    valid UTF-8: %s, at most 4096 bytes: %s\n", preg_match('//u', $uri) ? 'yes' : 'no', strlen($uri) <= 4096 ? 'yes' : 'no');
    if ($name === 'hostile script name') {
        printf("    path valid UTF-8: %s, %s\n", preg_match('//u', (string) reset($paths)) ? 'yes' : 'no', json_encode(substr((string) reset($paths), strlen($pool->docroot)), JSON_UNESCAPED_SLASHES));
    }
}

/* php-fpm stops: the stream ends, and never had a broken or invalid line */
stat_pool_kill($pool->masterPid(), SIGQUIT);
var_dump($stream->readAll(10.0), $stream->invalid, $stream->rest());

/* the CLI server takes a 64 KiB URI: stat keeps its first 4096 bytes */
$dir = $pool->dir;
$port = stat_test_port();
stat_pool_spawn(stat_test_command(['stat.stream' => "unix://$dir/cli.sock", 'stat.query' => 'all'], ['-S', "127.0.0.1:$port", '-t', $pool->docroot]), "$dir/cli.out");
$cli = new StatPoolStream("$dir/cli.sock");
stat_pool_until(function () use ($port) {
    $socket = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 1.0);
    return $socket ? fclose($socket) : false;
});
$long = '/any.php?id=12&q=' . str_repeat('b', 65536) . '&end=1';
[$status] = stat_pool_http($port, [['GET', $long]], 1, [$cli, 'pump'])[0];
printf("php -S, 64 KiB URI: HTTP %d\n", $status);
var_dump($cli->readUntil(fn($s) => $s->samples, 10.0));
$uris = array_unique(array_map(fn($x) => $x['request']['uri'] ?? '-', $cli->samples));
printf("php -S: %d uri, %d bytes, its start: %s\n", count($uris), strlen((string) reset($uris)), (string) reset($uris) === substr($long, 0, 4096) ? 'yes' : 'no');
var_dump($cli->invalid);
?>
--EXPECT--
bool(true)
NUL, encoded in the path: HTTP 400
64 KiB query: HTTP 500
nginx says the FastCGI record is too big: yes
quotes and backslashes, raw: HTTP 200
control characters, encoded: HTTP 200
NUL, encoded in the query: HTTP 200
invalid UTF-8, encoded: HTTP 200
invalid UTF-8, raw: HTTP 200
valid UTF-8, raw: HTTP 200
30000-byte query: HTTP 200
16 KiB path: HTTP 200
hostile script name: HTTP 200
bool(true)
quotes and backslashes, raw: 1 uri, "/any/q\"uote\\back?id=1&x=\"y\"\\z"
    valid UTF-8: yes, at most 4096 bytes: yes
control characters, encoded: 1 uri, "/any/c%01%02%03%04%05%06%07%08%09%0a%0b%...19%1a%1b%1c%1d%1e%1f (200 bytes)"
    valid UTF-8: yes, at most 4096 bytes: yes
NUL, encoded in the query: 1 uri, "/any/nul?id=3&q=%00end"
    valid UTF-8: yes, at most 4096 bytes: yes
invalid UTF-8, encoded: 1 uri, "/any/bad%ff%fe?id=4&q=%ff%fe"
    valid UTF-8: yes, at most 4096 bytes: yes
invalid UTF-8, raw: 1 uri, "/any/raw\ufffd\ufffd?id=5&q=\ufffd\ufffd"
    valid UTF-8: yes, at most 4096 bytes: yes
valid UTF-8, raw: 1 uri, "/any/\u00e9t\u00e9?id=6&q=\u20ac"
    valid UTF-8: yes, at most 4096 bytes: yes
30000-byte query: 1 uri, "/any/long?id=7&q=aaaaaaaaaaaaaaaaaaaaaaa...aaaaaaaaaaaaaaaaaaaa (4096 bytes)"
    valid UTF-8: yes, at most 4096 bytes: yes
16 KiB path: 1 uri, "/any/ppppppppppppppppppppppppppppppppppp...pppppppppppppppppppp (4096 bytes)"
    valid UTF-8: yes, at most 4096 bytes: yes
hostile script name: 1 uri, "/h%22%5C%01%FF.php?id=9"
    valid UTF-8: yes, at most 4096 bytes: yes
    path valid UTF-8: yes, "/h\"\\\u0001\ufffd.php"
bool(true)
array(0) {
}
string(0) ""
php -S, 64 KiB URI: HTTP 200
bool(true)
php -S: 1 uri, 4096 bytes, its start: yes
array(0) {
}
