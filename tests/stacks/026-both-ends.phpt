--TEST--
stacks: a recursion 3,000 deep under stat.stack=64 keeps both ends: the 56 innermost frames (down at the hot spot first), one {"function":"[truncated]","depth":3002} marker, and the 8 outermost (the script's top level last, entry() before it), in at least 95% of the samples taken inside it
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run(['stat.stack' => '64', 'stat.interval' => '100'], <<<'PHP'
<?php
function down(int $n) {
    if ($n > 1) {
        return down($n - 1);
    }
    for ($i = 1; $i % 100000 || more(); $i++);
}
function entry() {
    until(300);
    down(3000);
}
entry();
PHP);

$inside = $right = 0;
$shapes = [];
foreach ($samples as $sample) {
    $stack = $sample['stack'] ?? [];
    if (($stack[0]['function'] ?? '') !== 'down') {
        continue;
    }
    $inside++;
    $marks = array_keys(array_filter($stack, fn($f) => ($f['function'] ?? '') === '[truncated]'));
    $names = array_map(fn($f) => $f['function'] ?? '<top>', $stack);
    $ok = count($stack) === 65 && $marks === [56] && $stack[56]['depth'] === 3002 &&
        $names[0] === 'down' && ($stack[0]['line'] ?? 0) === 6 &&
        array_unique(array_slice($names, 0, 56)) === ['down'] &&
        array_slice($names, 57) === ['down', 'down', 'down', 'down', 'down', 'down', 'entry', '<top>'] &&
        ($stack[64]['line'] ?? 0) === 12 && ($stack[63]['line'] ?? 0) === 10 && ($stack[62]['line'] ?? 0) === 4;
    $right += $ok ? 1 : 0;
    if (!$ok) {
        $shapes[json_encode([count($stack), $marks, array_slice($stack, -3)])] = true;
    }
}
printf("samples inside the recursion: %s\n", $inside >= 200 ? 'enough' : "only $inside");
printf("both ends with one marker, 95%%: %s\n", $right >= 0.95 * $inside ? 'yes' : sprintf('no (%d of %d) %s', $right, $inside, implode(' ', array_slice(array_keys($shapes), 0, 3))));
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
samples inside the recursion: enough
both ends with one marker, 95%: yes
