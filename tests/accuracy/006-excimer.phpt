--TEST--
accuracy: stat and Excimer (EXCIMER_REAL, 100 us) profile one workload in the same run (short internal calls, recursion cut at stat.stack, generators, callbacks): the inclusive shares of its user functions agree within 2 points on average and 4 at most (but for a function whose calls last less than Excimer's sampling can see), and stat's shares of the parts are within 3 points of their time (hrtime)
--SKIPIF--
<?php
require __DIR__ . '/accuracy.inc';
if (stat_accuracy_excimer_ini() === null) die('skip Excimer cannot be loaded in a child (Debian: ' . stat_accuracy_excimer_package() . ')');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/accuracy.inc';

/*
 * The functions compared: Excimer sees user functions only. Not work():
 * Excimer takes its sample at the engine's next interrupt check (a call, a
 * loop's jump back), which a call of a few hundred nanoseconds (work(2) in
 * usort's comparison, work(6) in array_map's callback) has often returned
 * before: it shows work() some 6 points under stat, whose shares of the
 * parts that contain it match their time (hrtime) within half a point.
 */
const FUNCTIONS = ['fa', 'fb', 'fd', 'down', 'deep', 'numbers', 'looped', 'mapped', 'sorted'];

$script = <<<'PHP'
<?php
$hay = [];
for ($i = 0; $i < 3000; $i++) {
    $hay[] = "s$i";
}
$text = str_repeat('hello world foo bar ', 360);
$values = range(1, 200);
shuffle($values);
function fa(array $h) { return in_array('zz', $h); }
function fb(string $t) { return str_replace('foo', 'baz', $t); }
function fd() { $p = '/a/b/c/d/e/f'; for ($k = 0; $k < 200; $k++) { $q = dirname($p); } return $q; }
function work(int $n): int {
    $x = 0;
    for ($i = 0; $i < $n; $i++) {
        $x = ($x + $i * 7) % 1000003;
    }
    return $x;
}
function down(int $depth, int $n): int { return $depth > 0 ? down($depth - 1, $n) + 1 : work($n); }
function deep(): int { return down(40, 1500); }
function numbers(int $count, int $n) { for ($k = 0; $k < $count; $k++) { yield work($n); } }
function looped(): int { $s = 0; foreach (numbers(5, 300) as $v) { $s += $v; } return $s; }
function mapped(array $values): int { return array_sum(array_map(fn($v) => work(6) + $v, $values)); }
function sorted(array $values): int { usort($values, fn($a, $b) => (work(2) & 0) + ($a <=> $b)); return $values[0]; }

$excimer = new ExcimerProfiler();
$excimer->setPeriod(0.0001);
$excimer->setEventType(EXCIMER_REAL);
$excimer->start();
accuracy_run([
    'fa' => fn() => fa($hay), 'fb' => fn() => fb($text), 'fd' => fn() => fd(), 'deep' => fn() => deep(),
    'looped' => fn() => looped(), 'mapped' => fn() => mapped($values), 'sorted' => fn() => sorted($values),
], 4);
$excimer->stop();
/* Excimer's inclusive counts of each user function, as accuracy_run's do for stat */
$counts = [];
$total = 0;
foreach ($excimer->getLog() as $entry) {
    $names = [];
    foreach ($entry->getTrace() as $frame) {
        $names[$frame['function'] ?? ''] = true;
    }
    foreach (array_keys($names) as $name) {
        $counts[$name] = ($counts[$name] ?? 0) + $entry->getEventCount();
    }
    $total += $entry->getEventCount();
}
file_put_contents($argv[1] . '.excimer', json_encode(['counts' => $counts, 'total' => $total]));
PHP;

$stat = [];
$total = $taken = 0;
/* each sample counts as its weight (the intervals it stands for), as Excimer counts a sample's events */
$result = stat_accuracy_run($script, stat_accuracy_excimer_ini(), function (array $sample) use (&$stat, &$total, &$taken) {
    $weight = $sample['weight'] ?? 1;
    $names = [];
    foreach ($sample['stack'] as $frame) {
        $names[$frame['function'] ?? ''] = true;
    }
    foreach (array_keys($names) as $name) {
        $stat[$name] = ($stat[$name] ?? 0) + $weight;
    }
    $total += $weight;
    $taken++;
}, false);
/* (sampled all along, as Excimer samples: the unsampled stretches of the other tests would leave stat a part of Excimer's run) */
$excimer = json_decode((string) file_get_contents($result['truth_file'] . '.excimer'), true);
printf("samples: stat %s, Excimer %s\n", $taken >= 10000 ? 'enough' : $taken, $excimer['total'] >= 10000 ? 'enough' : $excimer['total']);
$differences = [];
foreach (FUNCTIONS as $function) {
    $a = 100 * ($stat[$function] ?? 0) / max(1, $total);
    $b = 100 * ($excimer['counts'][$function] ?? 0) / max(1, $excimer['total']);
    $differences[$function] = abs($a - $b);
    if ($differences[$function] > 4) {
        printf("  %s: stat %.1f%%, Excimer %.1f%%\n", $function, $a, $b);
    }
}
foreach ($result['truth'] as $part => $truth) {
    if (abs($result['profile'][$part] - $truth) > 3) {
        printf("  %s: stat %.1f%% of the samples, %.1f%% of the time\n", $part, $result['profile'][$part], $truth);
    }
}
$mean = array_sum($differences) / count($differences);
$errors = array_map(fn($part) => abs($result['profile'][$part] - $result['truth'][$part]), array_keys($result['truth']));
stat_accuracy_log('stat against Excimer', ['samples' => $total, 'excimer_samples' => $excimer['total'],
    'failed' => round($result['failed'], 3), 'mean_difference' => round($mean, 2), 'largest_difference' => round(max($differences), 2),
    'largest_error' => round(max($errors), 2)]);
printf("mean difference: %s\n", $mean <= 2 ? 'at most 2 points' : sprintf('%.2f points', $mean));
printf("largest difference: %s\n", max($differences) <= 4 ? 'at most 4 points' : sprintf('%.2f points', max($differences)));
?>
--EXPECT--
samples: stat enough, Excimer enough
mean difference: at most 2 points
largest difference: at most 4 points
