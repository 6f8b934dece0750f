--TEST--
stacks: recursion 5,000 deep with stat.stack=256 keeps the 248 innermost and the 8 outermost frames (down to the script's top level) with {"function":"[truncated]","depth":5001} between them
--INI--
stat.stream=0
stat.control=0
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run(['stat.stack' => '256', 'stat.samples' => '2000'], <<<'PHP'
<?php
function down(int $n) {
    if ($n > 1) {
        return down($n - 1);
    }
    for ($i = 1; $i % 100000 || more(); $i++);
    return 0;
}
until(300);
down(5000);
PHP);

/* taken at the bottom: the leaf is down() at the hot line */
$bottom = array_values(array_filter(stat_stacks_select($samples, ['function' => 'down']), fn($s) => ($s['stack'][0]['line'] ?? 0) === 6));
printf("samples at the bottom: %s\n", count($bottom) >= 50 ? 'enough' : count($bottom));
$shapes = [];
foreach ($bottom as $sample) {
    $stack = array_map('stat_stacks_frame', $sample['stack']);
    $runs = [];
    /* runs of equal frames, to print 257 frames briefly */
    foreach ($stack as $frame) {
        if ($runs && $runs[count($runs) - 1][0] === $frame) {
            $runs[count($runs) - 1][1]++;
        } else {
            $runs[] = [$frame, 1];
        }
    }
    $shapes[implode("\n", array_map(fn($r) => "$r[1] x $r[0]", $runs))] = true;
}
echo implode("\n\n", array_keys($shapes)), "\n";
/* the true depth: 5,000 frames of down() and the script's own frame */
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
samples at the bottom: enough
1 x {"function":"down","file":"child.php","line":6}
247 x {"function":"down","file":"child.php","line":4}
1 x {"function":"[truncated]","depth":5001}
7 x {"function":"down","file":"child.php","line":4}
1 x {"file":"child.php","line":10}
