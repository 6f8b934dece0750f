--TEST--
sampler: with stat.auto=0, samples reach the stream only between activate() and deactivate()
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '100'],
    "<?php\n" . stat_sampler_spinner('off_before') . stat_sampler_spinner('on_between') . stat_sampler_spinner('off_after') . <<<'PHP'
echo "ready\n";
fgets(STDIN);
off_before(0.15);
$from = stat\elapsed();
$activated = stat\sampler\activate();
on_between(0.2, 50);
$deactivated = stat\sampler\deactivate();
$to = stat\elapsed();
off_after(0.15);
echo json_encode([$activated, $deactivated, $from, $to]), "\n";
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll(), $child->wait(), $child->stderr());
[$activated, $deactivated, $from, $to] = json_decode(explode("\n", $child->stdout())[1], true);
var_dump($activated, $deactivated, $stream->invalid);

$outside = array_filter($stream->samples, fn($s) => $s['elapsed'] < $from || $s['elapsed'] > $to);
$symbols = array_count_values(array_map('stat_test_symbol', $stream->samples));
printf("samples: %s\n", count($stream->samples) >= 50 ? 'enough' : count($stream->samples));
printf("samples outside activate..deactivate: %d\n", count($outside));
printf("on_between sampled: %s\n", isset($symbols['on_between']) ? 'yes' : 'no');
printf("off_before sampled: %s\n", isset($symbols['off_before']) ? 'yes' : 'no');
printf("off_after sampled: %s\n", isset($symbols['off_after']) ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
bool(true)
bool(true)
array(0) {
}
samples: enough
samples outside activate..deactivate: 0
on_between sampled: yes
off_before sampled: no
off_after sampled: no
