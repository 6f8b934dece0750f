--TEST--
sampler: stat\elapsed() counts seconds, increases, and is the clock of samples' elapsed
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '100'],
    "<?php\n" . stat_sampler_spinner('elapsed_work') . <<<'PHP'
echo "ready\n";
fgets(STDIN);
/* wall-clock brackets around each stat\elapsed() call */
$a0 = microtime(true); $e0 = stat\elapsed(); $b0 = microtime(true);
elapsed_work(0.3, 50);
$a1 = microtime(true); $e1 = stat\elapsed(); $b1 = microtime(true);
echo json_encode([$e0, $e1, $a1 - $b0, $b1 - $a0]), "\n";
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll(), $child->wait(), $child->stderr());
[$e0, $e1, $least, $most] = json_decode(explode("\n", $child->stdout())[1], true);
var_dump(is_float($e0), is_float($e1));
printf("starts small and positive: %s\n", $e0 > 0 && $e0 < 10 ? 'yes' : "no ($e0)");
printf("increases: %s\n", $e1 > $e0 ? "yes" : "no (" . min($times) . ".." . max($times) . " vs $e0..$e1)");
printf("in seconds (within microtime's brackets, 1 ms slack): %s\n", $e1 - $e0 >= $least - 0.001 && $e1 - $e0 <= $most + 0.001 ? 'yes' : "no (elapsed " . ($e1 - $e0) . ", wall $least..$most)");

$work = array_filter($stream->samples, fn($s) => stat_test_symbol($s) === 'elapsed_work');
$times = array_column($work, 'elapsed');
printf("elapsed_work samples: %s\n", count($work) >= 20 ? 'enough' : count($work));
printf("all between the two stat\\elapsed() calls: %s\n", $times && min($times) >= $e0 && max($times) <= $e1 ? 'yes' : 'no (' . min($times) . '..' . max($times) . " vs $e0..$e1)");
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
bool(true)
bool(true)
starts small and positive: yes
increases: yes
in seconds (within microtime's brackets, 1 ms slack): yes
elapsed_work samples: enough
all between the two stat\elapsed() calls: yes
