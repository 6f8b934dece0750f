--TEST--
stacks: 341 frames through a generator under stat.stack=255 are read whole: on the main VM stack with the generator running innermost (its frame on the heap, the window still the page's top), and in a fiber, whose 16 KiB VM stack pages the 255 frames kept span many of (each page below the previous one copied in one read, not a read a frame)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

/*
 * down() recurses, then resumes rows(), a generator, with foreach: on the
 * main stack rows() runs the hot spot itself (the current frame is on the
 * heap); in the fiber it calls spin(), which does. down() has 40 variables:
 * a frame of about 800 bytes, so the fiber's 16 KiB VM stack pages (Zend's
 * ZEND_FIBER_VM_STACK_SIZE) hold some 20 frames and 255 frames span a dozen
 * pages. Both stacks are 341 frames deep: the 247 innermost are kept, then
 * the marker, then the 8 outermost.
 */
$samples = stat_stacks_run(['stat.stack' => '255', 'stat.samples' => '2000'], <<<'PHP'
<?php
function spin() {
    for ($i = 1; $i % 100000 || more(); $i++);
}
function rows(bool $call) {
    yield 1;
    if ($call) {
        spin();
    } else {
        for ($i = 1; $i % 100000 || more(); $i++);
    }
    yield 2;
}
function down(int $n, bool $call) {
    $a0 = $a1 = $a2 = $a3 = $a4 = $a5 = $a6 = $a7 = $a8 = $a9 = $b0 = $b1 = $b2 = $b3 = $b4 = $b5 = $b6 = $b7 = $b8 = $b9 = $n;
    $c0 = $c1 = $c2 = $c3 = $c4 = $c5 = $c6 = $c7 = $c8 = $c9 = $d0 = $d1 = $d2 = $d3 = $d4 = $d5 = $d6 = $d7 = $d8 = $d9 = $n;
    if ($n > 1) {
        return down($n - 1, $call);
    }
    foreach (rows($call) as $v) {
        if ($v === 2) {
            break;
        }
        until(200);
    }
}
down(339, false);
$fiber = new Fiber(function () {
    down(335, true);
});
$fiber->start();
PHP);

foreach (['generator running, main stack' => ['function' => 'rows', 'line' => 10],
    'generator calling, in a fiber' => ['function' => 'spin', 'line' => 3]] as $label => $leaf) {
    $selected = stat_stacks_select($samples, $leaf);
    printf("%s: %s\n", $label, count($selected) >= 150 ? 'enough samples' : 'only ' . count($selected) . ' samples (want 150)');
    $shapes = [];
    foreach ($selected as $sample) {
        $runs = [];
        /* runs of equal frames, to print 256 frames briefly */
        foreach (array_map('stat_stacks_frame', $sample['stack']) as $frame) {
            if ($runs && $runs[count($runs) - 1][0] === $frame) {
                $runs[count($runs) - 1][1]++;
            } else {
                $runs[] = [$frame, 1];
            }
        }
        $shapes[implode("\n", array_map(fn($r) => "$r[1] x $r[0]", $runs))] = true;
    }
    echo implode("\n\n", array_keys($shapes)), "\n";
}
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
generator running, main stack: enough samples
1 x {"function":"rows","file":"child.php","line":10}
1 x {"function":"down","file":"child.php","line":20}
245 x {"function":"down","file":"child.php","line":18}
1 x {"function":"[truncated]","depth":341}
7 x {"function":"down","file":"child.php","line":18}
1 x {"file":"child.php","line":27}
generator calling, in a fiber: enough samples
1 x {"function":"spin","file":"child.php","line":3}
1 x {"function":"rows","file":"child.php","line":8}
1 x {"function":"down","file":"child.php","line":20}
244 x {"function":"down","file":"child.php","line":18}
1 x {"function":"[truncated]","depth":341}
4 x {"function":"down","file":"child.php","line":18}
1 x {"function":"{closure}","file":"child.php","line":29,"start":28}
1 x {"function":"{fiber}"}
1 x {"scope":"Fiber","function":"start"}
1 x {"file":"child.php","line":31}