--TEST--
sampler: with stat.samplers=0 (no limit), places of more samplers than the table holds (4,096) that were killed with SIGKILL are taken back when a place is needed: a new sampler is never refused
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl is not available');
if (!extension_loaded('posix') && !is_file(PHP_EXTENSION_DIR . '/posix.so')) die('skip needs posix (posix_kill)');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$ini = ['stat.samplers' => '0', 'stat.auto' => '0', 'stat.interval' => '1000'];
if (!extension_loaded('posix')) {
    $ini['extension'] = PHP_EXTENSION_DIR . '/posix.so';
}
/*
 * Each child activates a sampler (taking a place) and kills itself with
 * SIGKILL, so nothing releases the place. Nothing here calls stat\counters()
 * or phpinfo() until the end (both sweep dead places).
 */
$child = new StatChild($ini, <<<'PHP'
<?php
$refused = $killed = 0;
for ($i = 0; $i < 4200; $i++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        if (!stat\sampler\activate()) {
            exit(3);
        }
        posix_kill(getmypid(), SIGKILL);
        exit(4);
    }
    pcntl_waitpid($pid, $status);
    if (($i + 1) % 200 === 0) {
        echo "forked ", $i + 1, "\n";
    }
    if (pcntl_wifsignaled($status) && pcntl_wtermsig($status) === SIGKILL) {
        $killed++;
    } elseif (pcntl_wifexited($status) && pcntl_wexitstatus($status) === 3) {
        $refused++;
    }
}
$after = stat\sampler\activate();
$counters = stat\counters();
echo json_encode(['killed' => $killed, 'refused' => $refused, 'activate after' => $after,
    'samplers_refused' => $counters['samplers_refused'] ?? null]), "\n";
PHP);
/* a slow machine (or a sanitizer build) takes longer: wait as long as the forks go on */
for ($n = 200; $n <= 4200 && $child->waitFor("forked $n\n", 60.0); $n += 200) {
}
printf("exit: %s\n", var_export($child->wait(60), true));
echo preg_replace('/^forked \d+\n/m', '', $child->stdout());
echo $child->stderr();
?>
--EXPECT--
exit: 0
{"killed":4200,"refused":0,"activate after":true,"samplers_refused":0}
