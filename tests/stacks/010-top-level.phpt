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
$from = stat\elapsed();
for ($i = 1; $i % 100000 || more(); $i++);
$to = stat\elapsed();
echo json_encode([$from, $to]), "\n";
PHP, $child);

/* samples taken while the loop ran (not while PHP set up or tore down the script's frame) */
[$from, $to] = json_decode($child->stdout(), true);
$during = array_filter($samples, fn($s) => $s['elapsed'] > $from && $s['elapsed'] < $to);
stat_stacks_show('top-level code', $during, ['function' => null, 'file' => 'child.php']);
$shapes = [];
foreach (stat_stacks_select($during, ['function' => null, 'file' => 'child.php']) as $sample) {
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
{"file":"child.php","line":6}
user location={"file":"child.php","line":6} symbol=null
