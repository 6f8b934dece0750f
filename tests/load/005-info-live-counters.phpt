--TEST--
load: stat's phpinfo() counters are live: samples written and strings used grow, a connected client is counted
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/load.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '100'], <<<'PHP'
<?php
function info(): string {
    ob_start();
    phpinfo(INFO_MODULES);
    $text = ob_get_clean();
    $start = strpos($text, "\nstat\n");
    return substr($text, $start, strpos($text, 'Directive', $start) - $start);
}
/* at least $seconds and 50 samples (at most 5 s more on a busy machine) */
function live_counters_spin(float $seconds): void {
    $start = microtime(true);
    $want = stat\counters()['samples_written'] + 50;
    do {
        for ($i = 0; $i < 200; $i++) { md5('x'); }
        $took = microtime(true) - $start;
    } while ($took < $seconds || ($took < $seconds + 5.0 && stat\counters()['samples_written'] < $want));
}
echo 'BEFORE ', json_encode(info()), "\n";
echo "ready\n";
fgets(STDIN);
live_counters_spin(0.3);
echo 'AFTER ', json_encode(info()), "\n";
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
/* the listener has accepted us once samples arrive */
var_dump($stream->readUntil(fn($s) => count($s->samples) > 0));
$child->send("go\n");
var_dump($child->wait());
var_dump($stream->readAll());
var_dump($child->stderr());
preg_match('/^BEFORE (.*)$/m', $child->stdout(), $b);
preg_match('/^AFTER (.*)$/m', $child->stdout(), $a);
$before = stat_load_info_rows(json_decode($b[1] ?? '""'));
$after = stat_load_info_rows(json_decode($a[1] ?? '""'));

$n = fn(array $rows, string $prefix) => stat_load_info_number($rows, $prefix) ?? -1;
printf("clients connected before: %d, after: %d\n", $n($before, 'stream clients connected'), $n($after, 'stream clients connected'));
printf("samples written grew: %s\n", $n($after, 'samples written') > $n($before, 'samples written') ? 'yes' : 'no');
printf("strings used grew: %s\n", $n($after, 'strings used') > $n($before, 'strings used') ? 'yes' : 'no');
printf("strings free shrank by as much: %s\n",
    $n($before, 'strings free') - $n($after, 'strings free') === $n($after, 'strings used') - $n($before, 'strings used') ? 'yes' : 'no');
printf("the function was sampled: %s\n", in_array('live_counters_spin', array_map('stat_test_symbol', $stream->samples), true) ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
bool(true)
string(0) ""
clients connected before: 0, after: 1
samples written grew: yes
strings used grew: yes
strings free shrank by as much: yes
the function was sampled: yes
