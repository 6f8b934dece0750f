--TEST--
stacks: top-level script code is one frame with file and line and no function; the sample has a location and no symbol
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run([], <<<'PHP'
<?php
$x = 1;

until(200);
for ($i = 1; $i % 100000 || more(); $i++);
$y = 2;
PHP);

stat_stacks_show('top-level code', $samples, ['function' => null, 'file' => 'child.php']);
$top = stat_stacks_select($samples, ['function' => null, 'file' => 'child.php']);
$shapes = [];
foreach ($top as $sample) {
    $sample['location']['file'] = stat_stacks_path($sample['location']['file'] ?? '?');
    unset($sample['location']['offset']);
    $shapes[] = $sample['type'] . ' location=' . json_encode($sample['location'], JSON_UNESCAPED_SLASHES) .
        ' symbol=' . json_encode($sample['symbol'] ?? null);
}
echo implode("\n", array_unique($shapes)), "\n";
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
top-level code: enough samples
{"file":"child.php","line":5}
user location={"file":"child.php","line":5} symbol=null
