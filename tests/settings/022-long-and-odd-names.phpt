--TEST--
settings: 100 KB function and class names (eval), names with invalid UTF-8 and with a NUL (an anonymous class): every line valid JSON, names cut to 4096 bytes (a cut character becomes U+FFFD), invalid bytes U+FFFD, the NUL ends the name
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.dump' => '3', 'stat.interval' => '500'], <<<'PHP'
<?php
$euro = 'f_' . str_repeat("\u{20AC}", 40000);
$ascii = 'g_' . str_repeat('n', 100 * 1024);
$bad = "h_\xff\xfe_bad_\xc0\x80_utf8";
$class = 'C_' . str_repeat('c', 100 * 1024);
$body = '($n) { $written = stat\counters()["samples_written"] + $n; $until = microtime(true) + 10;
    while (stat\counters()["samples_written"] < $written && microtime(true) < $until) { md5("x"); } }';
eval("function $euro$body function $ascii$body function $bad$body class $class { public static function m$body }");
$anonymous = new class { public function run($n) { $written = stat\counters()["samples_written"] + $n; $until = microtime(true) + 10;
    while (stat\counters()["samples_written"] < $written && microtime(true) < $until) { md5("x"); } } };
$euro(20);
$ascii(20);
$bad(20);
$class::m(20);
$anonymous->run(20);
echo "done\n";
PHP, [3 => ['file', "$dir/dump.jsonl", 'w']]);
var_dump($child->wait(), $child->stdout(), $child->stderr());

[$samples, $lost, $invalid] = stat_test_decode(file_get_contents("$dir/dump.jsonl"));
printf("lines valid JSON: %s\n", $invalid === [] ? 'all' : count($invalid) . ' invalid');
$expected = [
    'euro, cut inside a character' => ['function', 'f_' . str_repeat("\u{20AC}", 1364) . "\u{FFFD}\u{FFFD}"],
    'ascii, cut at 4096 bytes' => ['function', 'g_' . str_repeat('n', 4094)],
    'invalid UTF-8' => ['function', "h_\u{FFFD}\u{FFFD}_bad_\u{FFFD}\u{FFFD}_utf8"],
    'class, cut at 4096 bytes' => ['scope', 'C_' . str_repeat('c', 4094)],
    'anonymous class, up to the NUL' => ['scope', 'class@anonymous'],
];
foreach ($expected as $what => [$field, $name]) {
    /* the function running (often md5 or stat\counters) or a frame of its stack */
    $found = array_filter($samples, fn($s) => in_array($name, array_column(array_merge([$s['symbol'] ?? []], $s['stack'] ?? []), $field), true));
    printf("%s: %s\n", $what, $found ? 'sampled with the name expected' : 'not found');
}
$longest = 0;
foreach ($samples as $sample) {
    foreach (array_merge([$sample['symbol'] ?? []], $sample['stack'] ?? []) as $frame) {
        $longest = max($longest, strlen($frame['function'] ?? ''), strlen($frame['scope'] ?? ''));
    }
}
printf("no name longer than 4096 bytes (but for the U+FFFD of a cut character): %s\n", $longest <= 4100 ? 'yes' : $longest);
?>
--EXPECT--
int(0)
string(5) "done
"
string(0) ""
lines valid JSON: all
euro, cut inside a character: sampled with the name expected
ascii, cut at 4096 bytes: sampled with the name expected
invalid UTF-8: sampled with the name expected
class, cut at 4096 bytes: sampled with the name expected
anonymous class, up to the NUL: sampled with the name expected
no name longer than 4096 bytes (but for the U+FFFD of a cut character): yes
