--TEST--
stacks: the depth after "[truncated]" is the true depth of each stack, also when another path below the cut leaves the cut frame at the same address
--INI--
stat.stream=0
stat.control=0
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/stacks.inc';

/*
 * Two ways down to the same recursion: x<N>() (one frame with N locals) and
 * y() -> z() (two small frames). For some N the recursion starts at the same
 * VM stack address on both paths, so the frame at the cut, and the one under
 * it, are at the same addresses while the true depth differs by one.
 */
$script = <<<'PHP'
<?php
function down(int $n, bool $x) {
    if ($n > 1) {
        return down($n - 1, $x);
    }
    if ($x) {
        for ($i = 1; $i % 100000 || more(); $i++);
    } else {
        for ($i = 1; $i % 100000 || more(); $i++);
    }
}
function y() { z(); }
function z() { down(300, false); }
PHP;
for ($n = 0; $n <= 8; $n++) {
    $locals = '';
    for ($v = 0; $v < $n; $v++) {
        $locals .= "\$v$v = $v; ";
    }
    $script .= "\nfunction x$n() { {$locals}down(300, true); }";
}
$script .= "\nfor (\$round = 0; \$round < 2; \$round++) {";
for ($n = 0; $n <= 8; $n++) {
    $script .= "\n    until(60); x$n(); until(60); y();";
}
$script .= "\n}";

$samples = stat_stacks_run(['stat.stack' => '256', 'stat.samples' => '4000'], $script);

/* at the bottom: line 7 under x<N>() (depth 300 + x<N> + the script = 302), line 9 under y() (303) */
$depths = [];
foreach (stat_stacks_select($samples, ['function' => 'down']) as $sample) {
    $line = $sample['stack'][0]['line'] ?? 0;
    if ($line === 7 || $line === 9) {
        $path = $line === 7 ? 'x<N>()' : 'y()';
        /* the marker, between the innermost and the outermost frames */
        $marks = array_values(array_filter($sample['stack'], fn($f) => ($f['function'] ?? '') === '[truncated]'));
        $last = $marks[0] ?? $sample['stack'][count($sample['stack']) - 1];
        $depths[$path][json_encode($last)] = ($depths[$path][json_encode($last)] ?? 0) + 1;
    }
}
ksort($depths);
foreach ($depths as $path => $seen) {
    $enough = array_sum($seen) >= 200 ? 'enough samples' : 'only ' . array_sum($seen);
    echo "$path ($enough): ", implode(' ', array_keys($seen)), "\n";
}
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
x<N>() (enough samples): {"function":"[truncated]","depth":302}
y() (enough samples): {"function":"[truncated]","depth":303}
