--TEST--
pool: php-cgi -T 3 (three requests in one process) and php-cgi -b with PHP_FCGI_CHILDREN=2 behind nginx: samples carry each request's pid, method, URI and script
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['cgi', 'nginx'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$dir = stat_pool_dir();
file_put_contents("$dir/cgi.php", stat_pool_busy(0.3, 'echo getmypid(), " ", $_SERVER["REQUEST_METHOD"], " ", $_SERVER["REQUEST_URI"], "\n";'));
$ini = stat_pool_ini(['stat.stream' => "unix://$dir/cgi.sock"], 'cgi.ini');

/* 1. -T 3: one process, three requests. A clean environment, set deliberately: an inherited
   SCRIPT_FILENAME would make php-cgi run that file instead */
$env = ['PATH' => '/usr/bin:/bin', 'PHP_INI_SCAN_DIR' => '', 'REDIRECT_STATUS' => '200', 'GATEWAY_INTERFACE' => 'CGI/1.1',
    'REQUEST_METHOD' => 'PUT', 'SCRIPT_FILENAME' => "$dir/cgi.php", 'SCRIPT_NAME' => '/cgi.php',
    'REQUEST_URI' => '/cgi.php?t=1', 'QUERY_STRING' => 't=1'];
$cgi = proc_open([stat_pool_binary('cgi'), '-c', $ini, '-T', '3'], [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/cgi.out", 'w'], 2 => ['file', "$dir/cgi.err", 'w']], $pipes, $dir, $env + stat_pool_sanitizer_env());
StatPoolProcesses::$handles[] = $cgi;
$stream = new StatPoolStream("$dir/cgi.sock");
printf("php-cgi exits: %s\n", stat_pool_until(fn() => !proc_get_status($cgi)['running'], 30.0) ? 'yes' : 'no');
var_dump($stream->readAll(10.0));
preg_match_all('/^(\d+) PUT \/cgi\.php\?t=1$/m', file_get_contents("$dir/cgi.out"), $m);
printf("three answers from one pid: %s\n", count($m[1]) === 3 && count(array_unique($m[1])) === 1 ? 'yes' : 'no: ' . file_get_contents("$dir/cgi.out") . file_get_contents("$dir/cgi.err"));
$requests = [];
$other = [];
foreach ($stream->samples as $sample) {
    $r = $sample['request'];
    $requests[$r['pid'] . '/' . $r['elapsed']] = true;
    $facts = [$r['pid'] === (int) ($m[1][0] ?? 0), $r['method'] ?? null, $r['uri'] ?? null, $r['path'] ?? null];
    if ($facts !== [true, 'PUT', '/cgi.php?t=1', "$dir/cgi.php"]) {
        $other[] = json_encode($r);
    }
}
printf("samples of three requests: %d\n", count($requests));
var_dump(array_unique($other), $stream->invalid);

/* 2. -b behind nginx: the first php-cgi forks two children that serve the requests */
$pool = new StatPool(['cgi.children' => '2', 'cgi.max_requests' => '3']);
$pool->script('work.php', stat_pool_busy(0.2, 'echo getmypid();'));
var_dump($pool->ready());
$fcgi = new StatPoolStream($pool->stream);
$list = [];
for ($i = 0; $i < 8; $i++) {
    $list[] = [$i % 2 ? 'POST' : 'GET', "/work.php?fcgi=$i", $i % 2 ? "x=$i" : ''];
}
$responses = stat_pool_http($pool->port, $list, 2, [$fcgi, 'pump']);
$servedBy = [];
foreach ($responses as $i => [$status, $body]) {
    $servedBy[$list[$i][1]] = $status === 200 ? (int) $body : 0;
}
printf("all answered: %s\n", !in_array(0, $servedBy, true) ? 'yes' : 'no');
printf("children recycled after 3 requests: %s\n", count(array_unique($servedBy)) >= 3 ? 'yes' : 'no');
printf("not by the first process: %s\n", !in_array(proc_get_status($pool->fpm)['pid'], $servedBy, true) ? 'yes' : 'no');
var_dump($fcgi->readUntil(fn($s) => count(array_filter($list, fn($r) => $s->forUri($r[1]))) >= 6, 10.0));
$wrong = [];
foreach ($list as [$method, $uri]) {
    foreach ($fcgi->forUri($uri) as $sample) {
        if ($sample['request']['pid'] !== $servedBy[$uri] || $sample['request']['method'] !== $method || $sample['request']['path'] !== "$pool->docroot/work.php") {
            $wrong[] = json_encode($sample['request']);
        }
    }
}
var_dump(array_unique($wrong));
printf("every sample has a URI: %s\n", count(array_filter($fcgi->samples, fn($s) => !isset($s['request']['uri']))) === 0 ? 'yes' : 'no');
var_dump($fcgi->invalid);
?>
--EXPECT--
php-cgi exits: yes
bool(true)
three answers from one pid: yes
samples of three requests: 3
array(0) {
}
array(0) {
}
bool(true)
all answered: yes
children recycled after 3 requests: yes
not by the first process: yes
bool(true)
array(0) {
}
every sample has a URI: yes
array(0) {
}
