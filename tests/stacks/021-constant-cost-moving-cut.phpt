--TEST--
stacks: constant cost with stat.stack=64 when the leaf moves between two depths (calls from the hot loop): reads per sample at depth 1000 stay within 3.05, as at depth 10
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

/*
 * Most of the time is spent in outer() and inner(), one and two frames below
 * the loop, so the 64th frame (where a deep stack is cut) changes from one
 * sample to the next. The true depth under the cut must not be recounted by
 * walking the VM stack each time: that costs reads that grow with the depth.
 */
$samples = stat_stacks_run(['stat.stack' => '64', 'stat.samples' => '1000'], <<<'PHP'
<?php
function inner(int $x) { for ($j = 0; $j < 300; $j++) { $x += $j; } return $x; }
function outer(int $x) { for ($j = 0; $j < 300; $j++) { $x += $j; } return inner($x); }
function down(int $n) {
    if ($n > 1) {
        return down($n - 1);
    }
    $stop = microtime(true) + 0.2;
    for ($k = 0; $k < 20000; $k++) { microtime(true); stat\counters(); }
    for ($i = 1; $i % 1000 || microtime(true) < $stop; $i++) { outer($i); }
    $before = stat\counters();
    [$stop, $want] = [microtime(true) + 10, $before['samples_written'] + 2000];
    for ($i = 1; $i % 1000 || (microtime(true) < $stop && stat\counters()['samples_written'] < $want); $i++) { outer($i); }
    $after = stat\counters();
    return [$before, $after];
}
foreach ([10, 1000] as $depth) {
    [$before, $after] = down($depth - 1);
    echo json_encode(['depth' => $depth, 'reads' => $after['reads'] - $before['reads'],
        'samples_written' => $after['samples_written'] - $before['samples_written']]), "\n";
}
PHP, $child, fn($s) => false);

foreach (explode("\n", trim($child->stdout())) as $line) {
    $d = json_decode($line, true);
    $ratio = $d['samples_written'] > 0 ? $d['reads'] / $d['samples_written'] : INF;
    printf("depth %d: enough samples: %s\n", $d['depth'], $d['samples_written'] >= 1000 ? 'yes' : "no ($line)");
    printf("depth %d: reads per sample at most 3.05: %s\n", $d['depth'], $ratio <= 3.05 ? 'yes' : sprintf('no (%.3f: %s)', $ratio, $line));
}
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
depth 10: enough samples: yes
depth 10: reads per sample at most 3.05: yes
depth 1000: enough samples: yes
depth 1000: reads per sample at most 3.05: yes
