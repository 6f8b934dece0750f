--TEST--
stacks: PHP 8.4+ frameless calls (ZEND_FRAMELESS_ICALL_1, _2, _3: implode, in_array, str_replace) are named, marked "frameless", as the innermost frame over their caller at its line (and in the sample's symbol, with stat.stack=0 too); after one returned, the caller's own loop is never named after it
--SKIPIF--
<?php if (PHP_VERSION_ID < 80400) die('skip frameless calls exist from PHP 8.4'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$script = <<<'PHP'
<?php
function one(array $a) {
    for ($i = 1; $i % 100 || more(); $i++) { $s = implode($a); }
    return $s;
}
function two(array $h) {
    for ($i = 1; $i % 100 || more(); $i++) { $f = in_array('zz', $h); }
    return $f;
}
function three(string $t) {
    for ($i = 1; $i % 100 || more(); $i++) { $r = str_replace('foo', 'baz', $t); }
    return $r;
}
function after() {
    $x = dechex(255);
    for ($i = 1; $i % 100000 || more(); $i++);
    return $x;
}
$hay = [];
for ($i = 0; $i < 3000; $i++) {
    $hay[] = "s$i";
}
until(300);
one(range(1, 2000));
until(300);
two($hay);
until(300);
three(str_repeat('hello world foo bar ', 360));
until(300);
after();
PHP;

foreach (['64', '0'] as $stack) {
    echo "stat.stack=$stack\n";
    $samples = stat_stacks_run(['stat.stack' => $stack], $script);
    foreach (['implode' => 'one', 'in_array' => 'two', 'str_replace' => 'three'] as $function => $caller) {
        $in = array_filter($samples, fn($s) => $stack === '0'
            ? in_array($s['symbol']['function'] ?? '', [$function, $caller], true)
            : in_array($caller, array_column($s['stack'] ?? [], 'function'), true));
        $named = array_filter($in, fn($s) => ($s['symbol'] ?? null) === ['function' => $function, 'frameless' => true]);
        /* the frameless call is nearly all of its caller's loop: nearly every sample there names it */
        printf("  %s: %s\n", $function, count($in) >= 200 && count($named) >= 0.9 * count($in) ? 'named in its caller'
            : sprintf('%d of %d samples', count($named), count($in)));
        $shapes = [];
        foreach ($named as $sample) {
            $shapes[$sample['type'] . ' ' . json_encode(array_key_exists('location', $sample)) . ' ' .
                implode(' <- ', array_map('stat_stacks_frame', $sample['stack'] ?? []))] = true;
        }
        ksort($shapes);
        echo '    ', implode("\n    ", array_keys($shapes)), "\n";
    }
    $after = array_filter($samples, fn($s) => in_array('after', array_column($s['stack'] ?? [], 'function'), true)
        || ($s['symbol']['function'] ?? '') === 'after' || ($s['symbol']['function'] ?? '') === 'dechex');
    $dechex = array_filter($after, fn($s) => ($s['symbol']['function'] ?? '') === 'dechex');
    printf("  after dechex() returned: %s\n", count($after) >= 200 && count($dechex) <= 0.01 * count($after) ? 'not named'
        : sprintf('named in %d of %d samples', count($dechex), count($after)));
}
?>
--EXPECT--
stat.stack=64
exit: 0
stderr: ''
invalid lines: 0
  implode: named in its caller
    internal false {"function":"implode","frameless":true} <- {"function":"one","file":"child.php","line":3} <- {"file":"child.php","line":24}
  in_array: named in its caller
    internal false {"function":"in_array","frameless":true} <- {"function":"two","file":"child.php","line":7} <- {"file":"child.php","line":26}
  str_replace: named in its caller
    internal false {"function":"str_replace","frameless":true} <- {"function":"three","file":"child.php","line":11} <- {"file":"child.php","line":28}
  after dechex() returned: not named
stat.stack=0
exit: 0
stderr: ''
invalid lines: 0
  implode: named in its caller
    internal false 
  in_array: named in its caller
    internal false 
  str_replace: named in its caller
    internal false 
  after dechex() returned: not named
