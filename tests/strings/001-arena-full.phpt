--TEST--
strings: a 4K arena filled by many long function names: lines stay valid JSON, samples say "[strings full]", strings_full counts it
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.strings' => '4K', 'stat.interval' => '100'], <<<'PHP'
<?php
$code = '';
for ($i = 0; $i < 300; $i++) {
    $name = sprintf('arena_filler_with_a_deliberately_long_function_name_number_%03d', $i);
    $code .= "function $name(float \$until) { \$t = 0; while (microtime(true) < \$until) { \$t++; } return \$t; }\n";
}
eval($code);
echo "ready\n";
fgets(STDIN);
/* every function once, then on until the arena has turned names away (at most 5 s more) */
$start = microtime(true);
for ($i = 0; $i < 300 || (stat\counters()['strings_full'] === 0 && microtime(true) - $start < 5.0); $i++) {
    $name = sprintf('arena_filler_with_a_deliberately_long_function_name_number_%03d', $i % 300);
    $name(microtime(true) + 0.002);
}
echo json_encode(stat\counters()), "\n";
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll());
var_dump($child->wait(), $child->stderr());
$counters = json_decode(explode("\n", $child->stdout())[1] ?? 'null', true);

var_dump($stream->invalid, $stream->rest());
$full = $named = 0;
foreach ($stream->samples as $sample) {
    $function = $sample['symbol']['function'] ?? null;
    if ($function === '[strings full]') {
        $full++;
    } elseif (is_string($function) && str_starts_with($function, 'arena_filler_')) {
        $named++;
    }
}
printf("samples marked [strings full]: %s\n", $full > 0 ? 'some' : 'none');
printf("samples with a name that fit: %s\n", $named > 0 ? 'some' : 'none');
printf("strings_full > 0: %s\n", ($counters['strings_full'] ?? 0) > 0 ? 'yes' : 'no');
printf("capacity 4K: %s\n", var_export($counters['strings_capacity'] ?? null, true));
printf("used within capacity: %s\n", isset($counters['strings_used']) && $counters['strings_used'] <= 4096 ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
array(0) {
}
string(0) ""
samples marked [strings full]: some
samples with a name that fit: some
strings_full > 0: yes
capacity 4K: 4096
used within capacity: yes
