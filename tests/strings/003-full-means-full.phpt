--TEST--
strings: names are refused only when the arena is really full (many short names fill the 4K arena, not just its index)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

/*
 * 250 functions with 4-character names: each takes 24 bytes of arena (record
 * header, name, NUL, alignment). Once a name is refused, less than 24 bytes
 * may be free, else it would have fit.
 */
/* stat.dump gives the child a reader: a process nothing can read from samples nothing on its own */
$child = new StatChild(['stat.strings' => '4K', 'stat.interval' => '100', 'stat.dump' => '3'], <<<'PHP'
<?php
$code = '';
for ($i = 0; $i < 250; $i++) {
    $code .= sprintf("function f%03d(float \$until) { while (microtime(true) < \$until); }\n", $i);
}
eval($code);
$start = microtime(true);
for ($i = 0; $i < 250 || (stat\counters()['strings_full'] === 0 && microtime(true) - $start < 5.0); $i++) {
    $f = sprintf('f%03d', $i % 250);
    $f(microtime(true) + 0.003);
}
echo json_encode(stat\counters()), "\n";
PHP, [3 => ['file', '/dev/null', 'w']]);

var_dump($child->wait(), $child->stderr());
$c = json_decode($child->stdout(), true);
printf("some names refused: %s\n", $c['strings_full'] > 0 ? 'yes' : 'no');
printf("refused only when under 24 bytes were free: %s\n", $c['strings_capacity'] - $c['strings_used'] < 24
    ? 'yes' : "no ({$c['strings_inserted']} names inserted, {$c['strings_used']} of {$c['strings_capacity']} bytes used)");
?>
--EXPECT--
int(0)
string(0) ""
some names refused: yes
refused only when under 24 bytes were free: yes
