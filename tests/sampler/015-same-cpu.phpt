--TEST--
sampler: the sampler thread (in pool mode, the pool sampler process) runs on the CPU the request thread runs on (it follows PHP there, so that PHP stands still while its stack is copied): read from /proc while PHP is busy, the two threads' last CPUs agree; a deep recursion then gets its share of the samples (within 3 points of its time), where copying a PHP running on another CPU gave it 26% for 60%
--SKIPIF--
<?php
if (!is_readable('/proc/self/task')) die('skip needs /proc');
if ((int) shell_exec('nproc') < 2) die('skip one CPU: every thread runs on it');
/* the sampler follows PHP only where it can ask for a short scheduler slice (src/sampler/sampler.c) */
if (preg_match('/^(\d+)\.(\d+)/', php_uname('r'), $m) && ($m[1] * 100 + $m[2]) < 612) die('skip Linux before 6.12: the sampler does not follow PHP\'s CPU');
/* glibc 2.35+ registers each thread's rseq area, where the kernel keeps its CPU */
if (function_exists('shell_exec') && preg_match('/(\d+)\.(\d+)/', (string) shell_exec('getconf GNU_LIBC_VERSION 2>/dev/null'), $m) && ($m[1] * 100 + $m[2]) < 235) die('skip glibc before 2.35 has no rseq');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../accuracy/accuracy.inc';

/* the workload reads the CPUs of its two threads (field 39 of /proc/.../stat, after the name) while it is busy */
$script = <<<'PHP'
<?php
function cpu_of(string $task): ?int {
    $stat = @file_get_contents("$task/stat");
    if ($stat === false) {
        return null;
    }
    $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
    return (int) $fields[36];
}
$sampler = null;
foreach (glob('/proc/self/task/*') as $task) {
    if (trim((string) @file_get_contents("$task/comm")) === 'stat sampler') {
        $sampler = $task;
    }
}
/* stat.sampler=pool: the pool sampler process moves to the CPU of the request it reads */
if ((stat\settings()['sampler'] ?? '') === 'pool' && ($pool = stat\settings()['pool']['pid'] ?? 0) > 0) {
    $sampler = "/proc/$pool";
}
$self = '/proc/self/task/' . getmypid();
$same = $reads = 0;
$end = hrtime(true) + 2e9;
while (hrtime(true) < $end) {
    /* busy between looks, so that samples are taken (and the sampler moves) */
    for ($i = 0, $x = 0; $i < 20000; $i++) { $x += $i; }
    $a = cpu_of($self);
    $b = $sampler ? cpu_of($sampler) : null;
    if ($a !== null && $b !== null) {
        $reads++;
        $same += $a === $b;
    }
}
echo json_encode(['sampler' => $sampler !== null, 'reads' => $reads, 'same' => $same, 'samples' => stat\counters()['samples_written']]), "\n";
PHP;

$child = new StatChild(['stat.interval' => '500', 'stat.dump' => '3'], $script, [3 => ['file', '/dev/null', 'w']]);
$code = $child->wait(60);
$seen = json_decode($child->stdout(), true);
printf("exit: %s, sampler thread found: %s, samples: %s\n", var_export($code, true), ($seen['sampler'] ?? false) ? 'yes' : 'no',
    ($seen['samples'] ?? 0) > 1000 ? 'enough' : json_encode($seen));
/* (the sampler may have been moved away for a moment, or PHP just moved: most looks, not all) */
printf("on the same CPU: %s\n", ($seen['reads'] ?? 0) > 100 && $seen['same'] >= 0.9 * $seen['reads'] ? 'yes' : json_encode($seen));

$result = stat_accuracy_run(<<<'PHP'
<?php
function work(int $n): int { $x = 0; for ($i = 0; $i < $n; $i++) { $x = ($x + $i * 7) % 1000003; } return $x; }
function down(int $depth, int $n): int { return $depth > 0 ? down($depth - 1, $n) + 1 : work($n); }
function deep(): int { return down(300, 3000); }
function shallow(): int { return work(2500); }
accuracy_run(['deep' => fn() => deep(), 'shallow' => fn() => shallow()], 3);
PHP, ['stat.interval' => '1000'], null);
stat_accuracy_report('deep recursion at 1 ms', $result, 3.0, 1.0, 2000);
?>
--EXPECT--
exit: 0, sampler thread found: yes, samples: enough
on the same CPU: yes
deep recursion at 1 ms: enough samples
  deep: within 3 points
  shallow: within 3 points
  failed: at most 1%
