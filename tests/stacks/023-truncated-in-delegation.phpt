--TEST--
stacks: a stack cut inside a "yield from" chain gets its true depth (the generators still pending, then the caller), for chains of 10 and of 65 generators (the marker between the innermost and the outermost frames)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

/*
 * g($n) delegates to g($n - 1) with yield from, down to g(0), which runs the
 * hot spot: the stack is g(0), g(1) .. g($n), consume(), the script. With
 * stat.stack=4 the cut falls among the delegating generators, whose own links
 * are stale: their number comes from the delegation, and counting goes on
 * from consume(). 65 generators is the longest chain followed (64 delegating).
 */
$samples = stat_stacks_run(['stat.stack' => '4'], <<<'PHP'
<?php
function g(int $n, string $tag) {
    if ($n === 0) {
        for ($i = 1; $i % 100000 || more(); $i++);
        yield $tag;
    } else {
        yield from g($n - 1, $tag);
    }
}
function consume(int $generators, string $tag) {
    until(100);
    foreach (g($generators - 1, $tag) as $v) {
    }
}
consume(10, 'ten');
consume(65, 'sixty-five');
PHP);

stat_stacks_show('hot spot', $samples, ['function' => 'g', 'line' => 4], 150);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
hot spot: enough samples
{"function":"g","file":"child.php","line":4}
{"function":"g","file":"child.php","line":7}
{"function":"g","file":"child.php","line":7}
{"function":"[truncated]","depth":12}
{"file":"child.php","line":15}

{"function":"g","file":"child.php","line":4}
{"function":"g","file":"child.php","line":7}
{"function":"g","file":"child.php","line":7}
{"function":"[truncated]","depth":67}
{"file":"child.php","line":16}
