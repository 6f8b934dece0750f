--TEST--
stacks: eval()'d code is a frame with file "<file>(<line>) : eval()'d code", its own line and no function, followed by the frame that called eval()
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
function run(string $code) {
    until(200);
    return eval($code);
}
/* the loop is the eval'd code's only line (line 3): samples taken while PHP
   attaches or detaches run()'s variables report its first or last line */
run("\n\n" . 'for ($i = 1; $i % 100000 || more(); $i++);');
eval('function defined_in_eval() {
    $y = 2;
    for ($i = 1; $i % 100000 || more(); $i++);
}');
until(200);
defined_in_eval();
PHP);

stat_stacks_show('eval in a function', $samples, ['file' => "child.php(4) : eval()'d code"]);
stat_stacks_show('function defined in eval', $samples, ['function' => 'defined_in_eval']);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
eval in a function: enough samples
{"file":"child.php(4) : eval()'d code","line":3}
{"function":"run","file":"child.php","line":4}
{"file":"child.php","line":8}
function defined in eval: enough samples
{"function":"defined_in_eval","file":"child.php(9) : eval()'d code","line":3}
{"file":"child.php","line":14}
