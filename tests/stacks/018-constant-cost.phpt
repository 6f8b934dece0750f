--TEST--
stacks: constant cost with stat.stack=64: at depth 10 and at depth 1000, at most 3.05 reads per sample in steady state and no string insertions after warm-up
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$depths = [];
stat_stacks_run(['stat.stack' => '64', 'stat.samples' => '8000'], <<<'PHP'
<?php
function down(int $n) {
    if ($n > 1) {
        return down($n - 1);
    }
    /* warm-up, 0.2 s: every function called below is sampled (and named) here */
    $stop = microtime(true) + 0.2;
    for ($k = 0; $k < 20000; $k++) { microtime(true); stat\counters(); }
    for ($i = 1; $i % 1000000 || microtime(true) < $stop; $i++);
    $before = stat\counters();
    [$stop, $want] = [microtime(true) + 10, $before['samples_written'] + 2000];
    for ($i = 1; $i % 1000000 || (microtime(true) < $stop && stat\counters()['samples_written'] < $want); $i++);
    $after = stat\counters();
    return [$before, $after];
}
foreach ([10, 1000] as $depth) {
    /* down($depth - 1) under the script's frame: the hot loop runs $depth frames deep */
    [$before, $after] = down($depth - 1);
    $d = [];
    foreach (['reads', 'samples_written', 'samples_failed', 'strings_inserted', 'cache_misses'] as $name) {
        $d[$name] = $after[$name] - $before[$name];
    }
    echo json_encode(['depth' => $depth] + $d), "\n";
}
PHP, $child, function ($sample) use (&$depths) {
    /* keep only the shapes of the samples in the hot loop: how many frames, and the last */
    if (($sample['stack'][0]['function'] ?? null) === 'down' && ($sample['stack'][0]['line'] ?? null) === 12) {
        /* the marker if it was cut (between the innermost and the outermost frames), and the last */
        $marks = array_values(array_filter($sample['stack'], fn($f) => ($f['function'] ?? '') === '[truncated]'));
        $last = $sample['stack'][count($sample['stack']) - 1];
        $depths[count($sample['stack']) . ' frames, ' . ($marks ? stat_stacks_frame($marks[0]) . ', ' : '') . stat_stacks_frame($last)] = true;
    }
    return false;
});

foreach (explode("\n", trim($child->stdout())) as $line) {
    $d = json_decode($line, true);
    $ratio = $d['samples_written'] > 0 ? $d['reads'] / $d['samples_written'] : INF;
    printf("depth %d: enough samples: %s\n", $d['depth'], $d['samples_written'] >= 1000 ? 'yes' : "no ($line)");
    printf("depth %d: reads per sample at most 3.05: %s\n", $d['depth'], $ratio <= 3.05 ? 'yes' : sprintf('no (%.3f: %s)', $ratio, $line));
    printf("depth %d: strings inserted after warm-up: %d\n", $d['depth'], $d['strings_inserted']);
}
/* the samples in the hot loop really were that deep: 10 frames, and 1000 cut at 64 */
ksort($depths);
echo implode("\n", array_keys($depths)), "\n";
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
depth 10: enough samples: yes
depth 10: reads per sample at most 3.05: yes
depth 10: strings inserted after warm-up: 0
depth 1000: enough samples: yes
depth 1000: reads per sample at most 3.05: yes
depth 1000: strings inserted after warm-up: 0
10 frames, {"file":"child.php","line":18}
65 frames, {"function":"[truncated]","depth":1000}, {"file":"child.php","line":18}
