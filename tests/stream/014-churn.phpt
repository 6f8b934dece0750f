--TEST--
stream: churn at stat.interval=10 (closures, eval, generators, fibers, exceptions, includes of temporary files): no invalid line, clean exit
--SKIPIF--
<?php if (!getenv('STAT_TEST_HEAVY')) die('skip set STAT_TEST_HEAVY'); ?>
--INI--
memory_limit=1024M
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$script = <<<'PHP'
<?php
function gen(int $n) { for ($i = 0; $i < $n; $i++) { yield $i => str_repeat('g', $i % 7); } }
function thrower(int $i): void { throw new RuntimeException("churn $i"); }
function fiber_body(int $n): int {
    $t = 0;
    for ($i = 0; $i < $n; $i++) { $t += Fiber::suspend($i) ?? 0; }
    return $t;
}
echo "ready\n";
fgets(STDIN);
stat\sampler\activate();
$dir = __DIR__;
$start = microtime(true);
$round = 0;
/* 3 s, and at least 10000 samples so that every kind gets some (at most 20 s on a busy machine) */
while ((microtime(true) - $start < 3.0 || stat\counters()['samples_written'] < 10000) && microtime(true) - $start < 20) {
    $round++;
    /* closures created and freed */
    for ($i = 0; $i < 20; $i++) {
        $f = function (int $x) use ($i) { $t = 0; for ($j = 0; $j < 50; $j++) { $t += $x * $j; } return $t; };
        $f($i);
        $g = fn($x) => $x + $i;
        $g($i);
        unset($f, $g);
    }
    /* eval defining functions */
    eval("function ev_$round(int \$n): int { \$t = 0; for (\$i = 0; \$i < \$n; \$i++) { \$t += \$i; } return \$t; }");
    ("ev_$round")(3000); /* long enough to be sampled in every run, even under the sanitizers */
    /* generators */
    foreach (gen(100) as $k => $v) { strlen($v); }
    /* fibers */
    $fiber = new Fiber('fiber_body');
    $v = $fiber->start(50);
    while (!$fiber->isTerminated()) { $v = $fiber->resume($v); }
    unset($fiber);
    /* exceptions thrown and caught */
    for ($i = 0; $i < 20; $i++) {
        try { thrower($i); } catch (RuntimeException $e) { $e->getMessage(); }
    }
    /* includes of temporary files, removed right after */
    $file = "$dir/inc-$round.php";
    file_put_contents($file, "<?php\nfunction inc_$round(int \$n): int { \$t = 0; for (\$i = 0; \$i < \$n; \$i++) { \$t ^= \$i; } return \$t; }\nreturn inc_$round(300);\n");
    include $file;
    unlink($file);
}
stat\sampler\deactivate();
echo "rounds $round\n";
echo 'counters ', json_encode(stat\counters()), "\n";
echo "end\n";
fgets(STDIN); /* exit when the test closes stdin */
PHP;
$child = new StatChild(['stat.stream' => "$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '10', 'stat.samples' => '100000'], $script);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump(stat_stream_read_while($child, [$stream], "end\n", 60));
[$complete, $code, $eof] = stat_stream_finish($child, [$stream]);
var_dump($code);
var_dump($complete && $eof);
$counters = stat_stream_counters($child);
var_dump($child->stderr(), $stream->invalid, $stream->rest());

$kinds = [];
foreach ($stream->samples as $sample) {
    $symbol = stat_test_symbol($sample);
    $kind = match (true) {
        str_contains($symbol, '{closure}') => 'closure',
        str_starts_with($symbol, 'ev_') => 'eval',
        $symbol === 'gen' => 'generator',
        $symbol === 'fiber_body' || str_starts_with($symbol, 'Fiber::') => 'fiber',
        $symbol === 'thrower' || str_starts_with($symbol, 'Exception::') || str_starts_with($symbol, 'RuntimeException::') => 'exception',
        str_starts_with($symbol, 'inc_') || str_contains($sample['location']['file'] ?? '', '/inc-') => 'include',
        default => 'other',
    };
    $kinds[$kind] = true;
}
ksort($kinds);
echo implode(',', array_keys($kinds)), "\n";
$types = array_count_values(array_column($stream->samples, 'type'));
printf("user and internal samples: %s\n", ($types['user'] ?? 0) > 0 && ($types['internal'] ?? 0) > 0 ? 'yes' : 'no');
$lost = array_sum(array_column($stream->lost, 'count'));
printf("received + lost == written: %s\n", count($stream->samples) + $lost === $counters['samples_written'] ? 'yes' : 'no (' . count($stream->samples) . " + $lost of {$counters['samples_written']})");
/* a failed read is dropped and counted; most reads must still succeed even under churn */
printf("fewer failed reads than written samples: %s\n", $counters['samples_failed'] < $counters['samples_written'] ? 'yes' : "no ({$counters['samples_failed']} failed, {$counters['samples_written']} written)");
?>
--EXPECT--
bool(true)
bool(true)
int(0)
bool(true)
string(0) ""
array(0) {
}
string(0) ""
closure,eval,exception,fiber,generator,include,other
user and internal samples: yes
received + lost == written: yes
fewer failed reads than written samples: yes
