--TEST--
pool: the first sample of a process's later request reads as few times as the samples of a long request (php-cgi -T 16, at 10 ms, short requests of one or two samples): the window comes with the globals, where the last request's stack was; in both modes, and the samples name the request's functions
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip(['cgi'])) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

/*
 * One php-cgi process serves the same script sixteen times (-T 16),
 * opcache off, at stat.interval=10000: fifteen requests busy for 15 ms (one
 * or two samples each, the first of them a request's first), then one busy
 * for 0.4 s (its samples are nearly all taken in the middle of a request).
 * Each request reports stat's reads (process_vm_readv or /proc/PID/mem
 * calls) and samples over its busy part. From the fifth request on (the
 * first ones lay out the heap as the later ones find it: tests/pool/022,
 * and read names), the median short request's samples must take at most a
 * quarter of a read more each than the long request's: a first sample that
 * reads the window on its own takes one more.
 */
$dir = stat_pool_dir();
$lib = "<?php\n";
foreach (['one', 'two', 'three', 'four'] as $n) {
    $lib .= "class Box_$n { public static function run_$n(int \$x): int { for (\$i = 0; \$i < 200; \$i++) { \$x = (\$x * 31 + \$i) % 1000003; } return \$x; } }\n";
    $lib .= "function work_$n(int \$x): int { return Box_$n::run_$n(\$x); }\n";
}
file_put_contents("$dir/lib.php", $lib);
file_put_contents("$dir/round", '0');
file_put_contents("$dir/cgi.php", <<<'PHP'
<?php
require __DIR__ . '/lib.php';
$round = (int) file_get_contents(__DIR__ . '/round');
file_put_contents(__DIR__ . '/round', (string) ($round + 1));
$before = stat\counters();
$t = microtime(true);
$x = 1;
do {
    for ($j = 0; $j < 20; $j++) {
        $x = work_four(work_three(work_two(work_one($x))));
    }
} while (microtime(true) - $t < ($round === 15 ? 0.4 : 0.015));
$after = stat\counters();
echo json_encode(['reads' => $after['reads'] - $before['reads'], 'samples' => $after['samples_written'] - $before['samples_written'],
    'failed' => $after['samples_failed'] - $before['samples_failed'], 'x' => $x]), "\n";
PHP);
foreach (['request', 'pool'] as $mode) {
    file_put_contents("$dir/round", '0');
    $ini = stat_pool_ini(['stat.stream' => "unix://$dir/$mode.sock", 'stat.interval' => '10000', 'stat.sampler' => $mode], "$mode.ini");
    $env = ['PATH' => '/usr/bin:/bin', 'PHP_INI_SCAN_DIR' => '', 'REDIRECT_STATUS' => '200', 'GATEWAY_INTERFACE' => 'CGI/1.1',
        'REQUEST_METHOD' => 'GET', 'SCRIPT_FILENAME' => "$dir/cgi.php", 'SCRIPT_NAME' => '/cgi.php',
        'REQUEST_URI' => '/cgi.php', 'QUERY_STRING' => ''];
    $cgi = proc_open([stat_pool_binary('cgi'), '-c', $ini, '-T', '16'], [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/$mode.out", 'w'], 2 => ['file', "$dir/$mode.err", 'w']], $pipes, $dir, $env + stat_pool_sanitizer_env());
    StatPoolProcesses::$handles[] = $cgi;
    $stream = new StatPoolStream("$dir/$mode.sock");
    printf("%s: php-cgi exits: %s\n", $mode, stat_pool_until(fn() => !proc_get_status($cgi)['running'], 60.0) ? 'yes' : 'no');
    printf("%s: stream read to its end: %s\n", $mode, var_export($stream->readAll(10.0), true));

    $rounds = [];
    foreach (explode("\n", (string) file_get_contents("$dir/$mode.out")) as $line) {
        if (($r = json_decode(trim(preg_replace('/^.*?(\{)/s', '$1', $line)), true)) && isset($r['reads'])) {
            $rounds[] = $r;
        }
    }
    printf("%s: sixteen requests answered: %s\n", $mode, count($rounds) === 16 ? 'yes' : 'no: ' . file_get_contents("$dir/$mode.out") . file_get_contents("$dir/$mode.err"));
    $short = array_slice($rounds, 4, 11);
    $long = $rounds[15] ?? ['reads' => 0, 'samples' => 0];
    $per = fn(array $r) => $r['samples'] ? $r['reads'] / $r['samples'] : INF;
    /* (the median request: now and then one reads its names again, its heap laid out anew: tests/pool/022) */
    $ratios = array_map($per, array_filter($short, fn($r) => $r['samples'] > 0));
    sort($ratios);
    $shortPer = $ratios ? $ratios[intdiv(count($ratios), 2)] : INF;
    $seen = implode(' ', array_map(fn($r) => $r['samples'] ? round($r['reads'] / $r['samples'], 2) . "/{$r['samples']}" : '-', $rounds));
    printf("%s: samples of the short requests and of the long one: %s\n", $mode,
        array_sum(array_column($short, 'samples')) >= 8 && $long['samples'] >= 20 ? 'enough' : "no ($seen)");
    printf("%s: the median short request's samples read at most a quarter more than the long one's: %s\n", $mode,
        $shortPer <= $per($long) + 0.25 ? 'yes' : sprintf('no (%.2f against %.2f: %s)', $shortPer, $per($long), $seen));
    /* the samples name the requests' functions, all eight */
    $named = [];
    foreach ($stream->samples as $sample) {
        foreach ($sample['stack'] ?? [] as $frame) {
            if (preg_match('/^(Box_\w+::run_\w+|::work_\w+)$/', ($frame['scope'] ?? '') . '::' . ($frame['function'] ?? ''), $m)) {
                $named[$m[1]] = true;
            }
        }
    }
    ksort($named);
    printf("%s: %s\n", $mode, implode(' ', array_keys($named)));
    printf("%s: invalid lines: %d\n", $mode, count($stream->invalid));
}
?>
--EXPECT--
request: php-cgi exits: yes
request: stream read to its end: true
request: sixteen requests answered: yes
request: samples of the short requests and of the long one: enough
request: the median short request's samples read at most a quarter more than the long one's: yes
request: ::work_four ::work_one ::work_three ::work_two Box_four::run_four Box_one::run_one Box_three::run_three Box_two::run_two
request: invalid lines: 0
pool: php-cgi exits: yes
pool: stream read to its end: true
pool: sixteen requests answered: yes
pool: samples of the short requests and of the long one: enough
pool: the median short request's samples read at most a quarter more than the long one's: yes
pool: ::work_four ::work_one ::work_three ::work_two Box_four::run_four Box_one::run_one Box_three::run_three Box_two::run_two
pool: invalid lines: 0
