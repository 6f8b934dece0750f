--TEST--
settings: stat.strings=1K is one warning naming it (using 4K); then 5000 distinct functions sampled: the arena fills, names that do not fit are "[strings full]", strings_full counts them, every line stays valid JSON and PHP exits 0
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.strings' => '1K', 'stat.stream' => "unix://$dir/stream.sock", 'stat.dump' => '3', 'stat.interval' => '50'], <<<'PHP'
<?php
$code = '';
for ($i = 0; $i < 5000; $i++) {
    $code .= "function many_functions_$i(\$n) { \$w = stat\\counters()['samples_written'] + \$n; \$u = microtime(true) + 1;"
        . " while (stat\\counters()['samples_written'] < \$w && microtime(true) < \$u) { md5('x'); } }\n";
}
eval($code);
echo json_encode(stat\settings()['strings']), "\n";
fgets(STDIN);
for ($i = 0; $i < 5000; $i++) {
    ("many_functions_$i")(1);
}
echo json_encode(stat\counters()), "\n";
PHP, [3 => ['file', "$dir/dump.jsonl", 'w']]);
$child->waitFor("\n");
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
/* each sample is tallied as it comes and then dropped: at 50 us a slow
   machine streams tens of thousands, more than PHP's memory holds decoded */
$names = $full = 0;
$invalid = false;
$tally = function (array $sample) use (&$names, &$full): void {
    foreach (array_merge([$sample['symbol'] ?? []], $sample['stack'] ?? []) as $frame) {
        $function = $frame['function'] ?? '';
        $full += $function === '[strings full]';
        $names += str_starts_with($function, 'many_functions_');
    }
};
$stream->readUntil(function (StatStream $stream) use ($tally): bool {
    array_map($tally, $stream->samples);
    $stream->samples = [];
    return false;
}, 60);
array_map($tally, $stream->samples);
$code = $child->wait(60);
$lines = explode("\n", $child->stdout());
$counters = json_decode($lines[1] ?? 'null', true);
$warnings = array_values(array_filter(explode("\n", $child->stderr()), 'strlen'));
printf("exit: %s, arena: %s bytes\n", var_export($code, true), $lines[0]);
printf("one warning naming stat.strings: %s\n", count($warnings) === 1 && str_contains($warnings[0], "stat.strings must be at least 4K, '1K' given; using 4K") ? 'yes' : json_encode($warnings));
$dump = fopen("$dir/dump.jsonl", 'r');
while (($line = fgets($dump)) !== false) {
    [$dumped, , $bad] = stat_test_decode($line);
    array_map($tally, $dumped);
    $invalid = $invalid || $bad !== [];
}
printf("stream and dump lines valid JSON: %s\n", $stream->invalid === [] && $stream->rest() === '' && !$invalid ? 'yes' : 'no');
printf("frames named: %s, frames [strings full]: %s\n", $names > 0 ? 'some' : 'none', $full > 0 ? 'some' : 'none');
printf("strings_full > 0: %s, used within 4K: %s\n", ($counters['strings_full'] ?? 0) > 0 ? 'yes' : 'no',
    isset($counters['strings_used']) && $counters['strings_used'] <= 4096 && $counters['strings_capacity'] === 4096 ? 'yes' : json_encode($counters));
?>
--EXPECT--
exit: 0, arena: 4096 bytes
one warning naming stat.strings: yes
stream and dump lines valid JSON: yes
frames named: some, frames [strings full]: some
strings_full > 0: yes, used within 4K: yes
