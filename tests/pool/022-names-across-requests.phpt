--TEST--
pool: a function's names are kept from one request to the next of a process (php-cgi -T 5) and confirmed: a function renamed between requests, at the same address with a name of the same length, is named as it is now
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['cgi'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

/*
 * One php-cgi process serves the same script five times (-T 5), opcache off:
 * each request compiles lib.php and stable.php again, from the same state of
 * the heap, so their functions and names stand at the same addresses in every
 * request. At its end each request renames lib.php's class, method and
 * function for the next (names of the same length: the same allocations).
 * The samples of each request must name that request's functions and no
 * other (a name kept from the last request without looking is that
 * request's: the test of the confirmation), and the stable functions must
 * cost no name reads after the first requests (stat\counters()'s function
 * cache misses, counted around each request's busy part).
 */
$dir = stat_pool_dir();
$names = ['alpha', 'gamma', 'delta', 'omega', 'sigma', 'kappa'];
$lib = fn(string $n) => "<?php\nclass Box_$n { public static function run_$n(int \$x): int { for (\$i = 0; \$i < 200; \$i++) { \$x = (\$x * 31 + \$i) % 1000003; } return \$x; } }\n" .
    "function work_$n(int \$x): int { return Box_$n::run_$n(\$x); }\n";
file_put_contents("$dir/lib.php", $lib($names[0]));
$stable = "<?php\n";
foreach (['one', 'two', 'three', 'four', 'five'] as $s) {
    $stable .= "function stable_$s(int \$x): int { for (\$i = 0; \$i < 100; \$i++) { \$x = (\$x * 17 + \$i) % 1000003; } return \$x; }\n";
}
file_put_contents("$dir/stable.php", $stable);
file_put_contents("$dir/round", '0');
$names_php = var_export($names, true);
file_put_contents("$dir/cgi.php", <<<PHP
<?php
\$dir = __DIR__;
\$round = (int) file_get_contents("\$dir/round");
require "\$dir/lib.php";
require "\$dir/stable.php";
\$names = $names_php;
\$work = 'work_' . \$names[\$round];
\$before = stat\\counters();
/* busy in pure PHP (no internal call but the rare look at the counters) for 0.3 s and 60 samples, at most 10 s */
\$t = microtime(true);
\$x = 1;
do {
    for (\$j = 0; \$j < 50; \$j++) {
        \$x = stable_five(stable_four(stable_three(stable_two(stable_one(\$work(\$x))))));
    }
    \$c = stat\\counters();
} while ((microtime(true) - \$t < 0.3 || \$c['samples_written'] - \$before['samples_written'] < 60) && microtime(true) - \$t < 10);
\$after = stat\\counters();
\$next = \$names[\$round + 1];
file_put_contents("\$dir/lib.php", "<?php\\nclass Box_\$next { public static function run_\$next(int \\\$x): int { for (\\\$i = 0; \\\$i < 200; \\\$i++) { \\\$x = (\\\$x * 31 + \\\$i) % 1000003; } return \\\$x; } }\\n" .
    "function work_\$next(int \\\$x): int { return Box_\$next::run_\$next(\\\$x); }\\n");
file_put_contents("\$dir/round", (string) (\$round + 1));
echo json_encode(['round' => \$round, 'misses' => \$after['cache_misses'] - \$before['cache_misses'],
    'samples' => \$after['samples_written'] - \$before['samples_written'], 'x' => \$x]), "\\n";
PHP);
$ini = stat_pool_ini(['stat.stream' => "unix://$dir/cgi.sock", 'stat.interval' => '1000'], 'cgi.ini');
$env = ['PATH' => '/usr/bin:/bin', 'PHP_INI_SCAN_DIR' => '', 'REDIRECT_STATUS' => '200', 'GATEWAY_INTERFACE' => 'CGI/1.1',
    'REQUEST_METHOD' => 'GET', 'SCRIPT_FILENAME' => "$dir/cgi.php", 'SCRIPT_NAME' => '/cgi.php',
    'REQUEST_URI' => '/cgi.php', 'QUERY_STRING' => ''];
$cgi = proc_open([stat_pool_binary('cgi'), '-c', $ini, '-T', '5'], [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/cgi.out", 'w'], 2 => ['file', "$dir/cgi.err", 'w']], $pipes, $dir, $env + stat_pool_sanitizer_env());
StatPoolProcesses::$handles[] = $cgi;
$stream = new StatPoolStream("$dir/cgi.sock");
printf("php-cgi exits: %s\n", stat_pool_until(fn() => !proc_get_status($cgi)['running'], 60.0) ? 'yes' : 'no');
var_dump($stream->readAll(10.0));

$rounds = [];
foreach (explode("\n", (string) file_get_contents("$dir/cgi.out")) as $line) {
    if (($r = json_decode(trim(preg_replace('/^.*?(\{)/s', '$1', $line)), true)) && isset($r['round'])) {
        $rounds[$r['round']] = $r;
    }
}
printf("five requests answered: %s\n", array_keys($rounds) === [0, 1, 2, 3, 4] ? 'yes' : 'no: ' . file_get_contents("$dir/cgi.out") . file_get_contents("$dir/cgi.err"));

/* the samples of each request, by its start (request.elapsed), in order */
$byRequest = [];
foreach ($stream->samples as $sample) {
    $byRequest[(string) $sample['request']['elapsed']][] = $sample;
}
ksort($byRequest, SORT_NUMERIC);
$byRequest = array_values($byRequest);
printf("samples of five requests: %d\n", count($byRequest));

$wrong = [];
$named = [];
foreach ($byRequest as $round => $samples) {
    $n = $names[$round] ?? '?';
    foreach ($samples as $sample) {
        foreach ($sample['stack'] ?? [] as $frame) {
            $function = ($frame['scope'] ?? '') . '::' . ($frame['function'] ?? '');
            if (preg_match('/(alpha|gamma|delta|omega|sigma|kappa)/', $function, $m)) {
                if ($m[1] !== $n) {
                    $wrong[] = "request $round ($n): $function";
                } else {
                    $named[$round][$function] = true;
                }
            }
        }
    }
}
var_dump(array_values(array_unique($wrong)));
foreach ($byRequest as $round => $samples) {
    $n = $names[$round];
    $want = ["::work_$n", "Box_$n::run_$n"];
    $missing = array_diff($want, array_keys($named[$round] ?? []));
    printf("request %d names its own functions: %s\n", $round, $missing ? 'no, missing ' . implode(', ', $missing) : 'yes');
}

/*
 * Names read (cache misses) per request: the first request reads them all
 * (the stable five, the renamed pair, the script's main: 8), and so does the
 * second (the first request's heap is not the later ones': its functions
 * stand elsewhere). Later ones read the renamed pair's (2) and, now and then,
 * an internal function's that shares a cache slot with another (microtime()
 * and stat\counters() did here); a request whose heap is laid out anew reads
 * all 8 again (about one request in 8 did here). So: at least one of the
 * last three reads at most 5.
 */
$misses = array_map(fn($r) => $r['misses'], $rounds);
printf("misses per request: %s\n", implode(' ', $misses));
printf("the first request reads the names: %s\n", ($misses[0] ?? 0) >= 7 ? 'yes' : 'no');
$later = array_slice($misses, 2);
printf("a later request reads only the renamed functions' (at most 5): %s\n", $later && min($later) <= 5 ? 'yes' : 'no: ' . implode(' ', $misses));
var_dump($stream->invalid);
?>
--EXPECTF--
php-cgi exits: yes
bool(true)
five requests answered: yes
samples of five requests: 5
array(0) {
}
request 0 names its own functions: yes
request 1 names its own functions: yes
request 2 names its own functions: yes
request 3 names its own functions: yes
request 4 names its own functions: yes
misses per request: %s
the first request reads the names: yes
a later request reads only the renamed functions' (at most 5): yes
array(0) {
}
