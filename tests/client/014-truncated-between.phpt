--TEST--
client: a stack recorded from a recursion 3,000 deep under stat.stack=16 (both ends kept): fold, top, flame (its call tree) and speedscope show [truncated] as one frame between the outermost part (script, entry) and the innermost (down ... hot spot)
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$file = statq_record_script(<<<'PHP'
<?php
function down(int $n) {
    if ($n > 1) {
        return down($n - 1);
    }
    $s = microtime(true);
    do { $x = md5('x'); } while (stat\counters()['samples_written'] < 300 && microtime(true) - $s < 20);
}
function entry() { down(3000); }
entry();
PHP, ['stat.interval' => '200', 'stat.stack' => '16']);
$dir = dirname($file);

[$code, $out, $err] = statq_run(['fold', '-f', $file]);
$folded = statq_parse_folded($out);
$deep = array_filter($folded, fn($stack) => str_contains($stack, '[truncated]'), ARRAY_FILTER_USE_KEY);
printf("fold: exit %d, deep stacks: %s\n", $code, array_sum($deep) >= 100 ? 'enough' : 'only ' . array_sum($deep));
$shapes = [];
foreach (array_keys($deep) as $stack) {
    $frames = explode(';', $stack);
    $at = array_search('[truncated]', $frames, true);
    /* root first: the script, entry, down x2, the marker, then 12 innermost frames (down ..., the leaf) */
    $shapes[sprintf('%s | marker at %d of %d | after it: %s', implode(';', array_slice($frames, 0, $at)), $at, count($frames),
        implode(',', array_unique(array_slice($frames, $at + 1, -1))))] = true;
}
echo implode("\n", array_keys($shapes)), "\n";

[$code, $out] = statq_run(['top', '--once', '-f', $file]);
printf("top: exit %d, [truncated] is a row: %s, entry is a row: %s\n", $code, str_contains($out, '[truncated]') ? 'yes' : 'no',
    preg_match('/\bentry\b/', $out) ? 'yes' : 'no');

[$code] = statq_run(['speedscope', '-f', $file, '-o', "$dir/p.json"]);
$profile = json_decode((string) file_get_contents("$dir/p.json"), true);
$names = array_column($profile['shared']['frames'] ?? [], 'name');
$marker = array_search('[truncated]', $names, true);
$between = 0;
foreach ($profile['profiles'][0]['samples'] ?? [] as $stack) {
    $at = array_search($marker, $stack, true);
    if ($at !== false && $at > 0 && $at < count($stack) - 1) {
        $between++;
    }
}
printf("speedscope: exit %d, marker between the two parts: %s\n", $code, $between >= 100 ? 'yes' : "no ($between)");

[$code] = statq_run(['flame', '-f', $file, '-o', "$dir/f.html"]);
$data = statq_flame_data((string) file_get_contents("$dir/f.html"));
/* where the marker's nodes sit in the call tree: under the outermost part, with the innermost part below them */
function markers(array $data, array $node, array $above, array &$found): void
{
    $name = $node[0] < 0 ? null : $data['names'][$node[0]];
    if ($name === '[truncated]') {
        $below = array_unique(array_map(fn($child) => $data['names'][$child[0]], $node[3]));
        $key = sprintf('%s | below it: %s', implode(';', $above), implode(',', $below));
        $found[$key] = ($found[$key] ?? 0) + $node[1];
    }
    foreach ($node[3] as $child) {
        markers($data, $child, $name === null ? $above : [...$above, $name], $found);
    }
}
$found = [];
if ($data) {
    markers($data, $data['tree'], [], $found);
}
printf("flame: exit %d, data: %s, marker nodes:\n%s\n", $code, $data ? 'yes' : 'no',
    implode("\n", array_map(fn($k, $n) => $k . ($n >= 100 ? ' (enough samples)' : " (only $n)"), array_keys($found), $found)));
?>
--EXPECTF--
fold: exit 0, deep stacks: enough
<%s.php>;entry;down;down | marker at 4 of 17 | after it: down
top: exit 0, [truncated] is a row: yes, entry is a row: yes
speedscope: exit 0, marker between the two parts: yes
flame: exit 0, data: yes, marker nodes:
<%s.php>;entry;down;down | below it: down (enough samples)
