--TEST--
stacks: cheap calls in a tight loop never yield a stack cut short (a leaf without its callers, read while the next call's frame was being set up)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

/* tiny()'s window is the longer: a cheap call is the leaf of few samples */
$samples = stat_stacks_run(['stat.interval' => '20', 'stat.samples' => '50000'], <<<'PHP'
<?php
function tiny($x) {
    return $x;
}
function loop() {
    until(8000);
    for ($i = 1; $i % 1000 || more(); $i++) { crc32('a'); }
    until(16000);
    for ($i = 1; $i % 1000 || more(); $i++) { tiny($i); }
}
loop();
PHP);

$torn = $whole = [];
foreach ($samples as $sample) {
    $leaf = $sample['stack'][0]['function'] ?? null;
    if ($leaf !== 'crc32' && $leaf !== 'tiny') {
        continue;
    }
    $callers = array_map('stat_stacks_frame', array_slice($sample['stack'], 1));
    $line = $leaf === 'crc32' ? 7 : 9;
    if ($callers === ['{"function":"loop","file":"child.php","line":' . $line . '}', '{"file":"child.php","line":11}']) {
        $whole[$leaf] = ($whole[$leaf] ?? 0) + 1;
    } else {
        $key = implode(' <- ', array_map('stat_stacks_frame', $sample['stack']));
        $torn[$key] = ($torn[$key] ?? 0) + 1;
    }
}
$leaves = array_count_values(array_map(fn($s) => $s['stack'][0]['function'] ?? '(top level)', $samples));
printf("crc32 with its callers: %s\n", ($whole['crc32'] ?? 0) >= 50 ? 'yes' : 'no (' . json_encode($whole) . ', leaves ' . json_encode($leaves) . ')');
printf("tiny with its callers: %s\n", ($whole['tiny'] ?? 0) >= 50 ? 'yes' : 'no (' . json_encode($whole) . ', leaves ' . json_encode($leaves) . ')');
echo "stacks cut short:\n";
var_dump($torn);
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
crc32 with its callers: yes
tiny with its callers: yes
stacks cut short:
array(0) {
}
