--TEST--
stacks: include/require'd code is the included file's top-level frame (no function), followed by the includer's frame at the include line
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$dir = stat_test_dir();
/*
 * The loop is the included code's only line: samples taken while PHP attaches
 * the includer's variables before the first opcode, or detaches them after the
 * last, report the first or last line, which is this one.
 */
file_put_contents("$dir/leaf.php", <<<'PHP'
<?php
for ($i = 1; $i % 100000 || more(); $i++);
PHP);
file_put_contents("$dir/middle.php", <<<'PHP'
<?php

require __DIR__ . '/leaf.php';
PHP);

$samples = stat_stacks_run([], <<<'PHP'
<?php
function load(string $file) {
    until(200);
    include $file;
}
load(__DIR__ . '/leaf.php');
until(200);
require_once __DIR__ . '/middle.php';
PHP);

stat_stacks_show('included file', $samples, ['file' => 'DIR/leaf.php']);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
included file: enough samples
{"file":"DIR/leaf.php","line":2}
{"file":"DIR/middle.php","line":3}
{"file":"child.php","line":8}

{"file":"DIR/leaf.php","line":2}
{"function":"load","file":"child.php","line":4}
{"file":"child.php","line":6}
