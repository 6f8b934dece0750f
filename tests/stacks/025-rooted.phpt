--TEST--
stacks: a CPU-bound run of at least 5,000 stacks full of built-in calls (md5, str_repeat, array_map with a callback, usort): every stack ends at the script's top-level code; none is a built-in function that lost its callers (such a copy is torn: dropped and counted as failed)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$samples = stat_stacks_run(['stat.stack' => '64', 'stat.interval' => '20', 'stat.samples' => '40000'], <<<'PHP'
<?php
function digest(int $i): string { return md5(str_repeat((string) $i, 20)); }
function squares(array $a): array { return array_map(fn($x) => $x * $x, $a); }
function sorted(array $a): array { usort($a, fn($x, $y) => $y <=> $x); return $a; }
$deadline = microtime(true) + 20;
$start = \stat\counters()['samples_written'];
do {
    for ($i = 0; $i < 200; $i++) {
        digest($i);
        squares(range(1, 20));
        sorted(range(1, 20));
        crc32(md5((string) $i));
    }
} while (\stat\counters()['samples_written'] - $start < 6000 && microtime(true) < $deadline);
PHP, $child);

$stacks = $unrooted = 0;
$ends = [];
foreach ($samples as $sample) {
    if (!isset($sample['stack'])) {
        continue;
    }
    $stacks++;
    $last = end($sample['stack']);
    /* the script's top-level code: a file, no function */
    if (isset($last['function']) || !isset($last['file'])) {
        $unrooted++;
        $ends[json_encode($sample['stack'])] = true;
    }
}
printf("at least 5,000 stacks: %s\n", $stacks >= 5000 ? 'yes' : "no ($stacks)");
printf("unrooted stacks: %d %s\n", $unrooted, implode(' ', array_slice(array_keys($ends), 0, 3)));
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
at least 5,000 stacks: yes
unrooted stacks: 0
