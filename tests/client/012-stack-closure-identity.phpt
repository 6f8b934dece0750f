--TEST--
client: stacks name the closure that runs: under usort the usort callback, under array_map the array_map callback (else flame graphs and folded stacks lie)
--SKIPIF--
<?php
require __DIR__ . '/client.inc';
/* needs a stat that records stacks (stat.stack > 0 adds "stack" to samples) */
$probe = tempnam(sys_get_temp_dir(), 'statq-probe');
$command = stat_test_command(['stat.dump' => '3', 'stat.stack' => '4', 'stat.interval' => '100'],
    ['-r', '$t = microtime(true); while (microtime(true) - $t < 0.05) { md5("x"); }']);
$p = proc_open($command, [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w'], 3 => ['file', $probe, 'w']], $pipes);
proc_close($p);
$stacks = strpos((string) file_get_contents($probe), '"stack":[') !== false;
unlink($probe);
if (!$stacks) die('skip this stat does not record stacks');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

/*
 * Found while making statq's fixtures: a sample now and then names the other
 * closure (the one that ran before at the same VM stack position) as the
 * innermost frame, with offset 0 and no line: the frame is read while the
 * callback's call frame is being set up.
 */
$file = statq_record_script(<<<'PHP'
<?php
function run(): int {
    $a = array_map(fn(int $i): int => $i * 2, range(1, 50));
    usort($a, fn(int $x, int $y): int => $y <=> $x);
    return count($a);
}
$deadline = microtime(true) + 20;
while (stat\counters()['samples_written'] < 8000 && microtime(true) < $deadline) {
    run();
}
PHP, ['stat.interval' => '100', 'stat.stack' => '8']);
[$samples] = stat_test_decode(file_get_contents($file));
$closures = 0;
$wrong = [];
foreach ($samples as $sample) {
    $stack = $sample['stack'] ?? [];
    if (($stack[0]['function'] ?? '') !== '{closure}' || !isset($stack[1])) {
        continue;
    }
    $closures++;
    $caller = $stack[1]['function'] ?? '';
    $start = $stack[0]['start'] ?? null;
    $expected = ['array_map' => 3, 'usort' => 4][$caller] ?? null;
    if ($expected !== null && $start !== $expected) {
        $wrong[] = "$caller called the closure of line $start (offset {$sample['location']['offset']}, line " . ($sample['location']['line'] ?? 'none') . ')';
    }
}
printf("closures sampled: %s\n", $closures > 0 ? 'yes' : 'no');
var_dump(array_slice(array_count_values($wrong), 0, 5));
?>
--EXPECT--
closures sampled: yes
array(0) {
}
