--TEST--
pool: request.uri is the HTTP request's URI ($_SERVER['REQUEST_URI']), also behind a front controller (try_files → /index.php), with percent-encoding, and in php-cgi
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['fpm', 'nginx', 'cgi'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '2']);
$script = stat_pool_busy(0.2, 'echo getmypid(), " ", bin2hex($_SERVER["REQUEST_URI"]);');
$pool->script('index.php', $script);
$pool->script('any.php', $script);
var_dump($pool->ready());
$stream = new StatPoolStream($pool->stream);

$cases = [
    'front controller' => '/app/users/42?tab=posts',
    'percent-encoded path' => '/any/sp%20ace%2Fslash?id=2',
    'plain script' => '/index.php?id=3',
];
$list = array_map(fn($uri) => ['GET', $uri], array_values($cases));
$responses = stat_pool_http($pool->port, $list, 2, [$stream, 'pump']);
$stream->readUntil(fn($s) => count(array_unique(array_map(fn($x) => $x['request']['pid'] . '/' . $x['request']['elapsed'], $s->samples))) >= 3, 10.0);
foreach (array_keys($cases) as $i => $name) {
    [$status, $body] = $responses[$i];
    [$pid, $hex] = explode(' ', $body) + [0, ''];
    $requestUri = (string) hex2bin($hex);
    /* the samples of that request: from its worker, with its query string (each case has its own) */
    $query = substr($requestUri, strpos($requestUri, '?'));
    $uris = array_unique(array_map(fn($x) => $x['request']['uri'] ?? '-', array_filter($stream->samples,
        fn($x) => $x['request']['pid'] === (int) $pid && str_ends_with($x['request']['uri'] ?? '', $query))));
    printf("%s: REQUEST_URI %s, stat %s: %s\n", $name, json_encode($requestUri, JSON_UNESCAPED_SLASHES), json_encode(array_values($uris), JSON_UNESCAPED_SLASHES),
        in_array($requestUri, $uris, true) ? 'same' : 'different');
}

/* php-cgi: REQUEST_URI (set by the web server) is not SCRIPT_NAME */
$dir = $pool->dir;
$ini = stat_pool_ini(['stat.stream' => "unix://$dir/cgi.sock"], 'cgi.ini');
$env = ['PATH' => '/usr/bin:/bin', 'PHP_INI_SCAN_DIR' => '', 'REDIRECT_STATUS' => '200', 'REQUEST_METHOD' => 'GET',
    'SCRIPT_FILENAME' => "$pool->docroot/index.php", 'SCRIPT_NAME' => '/index.php', 'REQUEST_URI' => '/app/users/7?tab=cgi', 'QUERY_STRING' => 'tab=cgi'];
$cgi = proc_open([stat_pool_binary('cgi'), '-c', $ini], [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/cgi.out", 'w'], 2 => ['file', "$dir/cgi.out", 'a']], $pipes, $dir, $env + stat_pool_sanitizer_env());
StatPoolProcesses::$handles[] = $cgi;
$cgiStream = new StatPoolStream("$dir/cgi.sock");
$cgiStream->readAll(30.0);
$uris = array_unique(array_map(fn($x) => $x['request']['uri'] ?? '-', $cgiStream->samples));
printf("php-cgi: REQUEST_URI \"/app/users/7?tab=cgi\", stat %s: %s\n", json_encode(array_values($uris), JSON_UNESCAPED_SLASHES), in_array('/app/users/7?tab=cgi', $uris, true) ? 'same' : 'different');
?>
--EXPECT--
bool(true)
front controller: REQUEST_URI "/app/users/42?tab=posts", stat ["/app/users/42?tab=posts"]: same
percent-encoded path: REQUEST_URI "/any/sp%20ace%2Fslash?id=2", stat ["/any/sp%20ace%2Fslash?id=2"]: same
plain script: REQUEST_URI "/index.php?id=3", stat ["/index.php?id=3"]: same
php-cgi: REQUEST_URI "/app/users/7?tab=cgi", stat ["/app/users/7?tab=cgi"]: same
