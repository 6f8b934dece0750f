--TEST--
pool: pcntl_fork() in a CLI script: active() is true in the parent; in the child it is false (stat.sampler=request: no sampler thread after fork) and activate() works, or true from the fork on (stat.sampler=pool: the pool sampler samples it like its parent) and activate() is refused as for any active request; the child's samples carry its pid
--SKIPIF--
<?php require __DIR__ . '/pool.inc'; if ($why = stat_pool_skip([])) die("skip $why"); if (!function_exists('pcntl_fork')) die('skip needs pcntl'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$dir = stat_pool_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '200'], <<<'PHP'
<?php
/* the loops are inline so that the sampled (innermost user) function names the process */
function parent_work() { $t = microtime(true); $x = 0; while (microtime(true) - $t < 0.4) { $x++; } return $x; }
function child_work() { $t = microtime(true); $x = 0; while (microtime(true) - $t < 0.4) { $x++; } return $x; }
fgets(STDIN);
$facts = ['parent before fork' => stat\sampler\active()];
$pid = pcntl_fork();
if ($pid === 0) {
    $pool = ini_get('stat.sampler') === 'pool';
    $active = stat\sampler\active();
    $facts = ['child after fork as its mode says' => $active === $pool, 'child pid()' => stat\pid() === getmypid()];
    $facts['child activate() as its mode says'] = stat\sampler\activate() === !$pool;
    $facts['child after activate'] = stat\sampler\active();
    child_work();
    $facts['child deactivate()'] = stat\sampler\deactivate();
    $facts['child after deactivate'] = stat\sampler\active();
    echo 'child ', getmypid(), ' ', json_encode($facts), "\n";
    exit(0);
}
$facts['parent after fork'] = stat\sampler\active();
parent_work();
pcntl_waitpid($pid, $status);
$facts['parent after the child exited'] = stat\sampler\active();
echo 'parent ', getmypid(), ' ', json_encode($facts), "\n";
PHP);

$stream = new StatPoolStream("$dir/stream.sock");
$child->send("go\n");
var_dump($child->wait());
var_dump($stream->readAll(10.0));
preg_match('/^child (\d+) (.*)$/m', $child->stdout(), $c);
preg_match('/^parent (\d+) (.*)$/m', $child->stdout(), $p);
foreach ([json_decode($p[2] ?? 'null', true), json_decode($c[2] ?? 'null', true)] as $facts) {
    foreach ((array) $facts as $fact => $value) {
        printf("%s: %s\n", $fact, json_encode($value));
    }
}
$parent = (int) ($p[1] ?? 0);
$forked = (int) ($c[1] ?? 0);
$bySymbol = [];
foreach ($stream->samples as $sample) {
    $symbol = stat_test_symbol($sample);
    if (in_array($symbol, ['parent_work', 'child_work'], true)) {
        $bySymbol[$sample['request']['pid']][stat_test_symbol($sample)] = true;
    }
}
printf("parent_work sampled in the parent: %s\n", isset($bySymbol[$parent]['parent_work']) ? 'yes' : 'no');
printf("child_work sampled with the child's pid: %s\n", isset($bySymbol[$forked]['child_work']) ? 'yes' : 'no');
printf("child_work never under the parent's pid: %s\n", isset($bySymbol[$parent]['child_work']) ? 'no' : 'yes');
printf("parent_work never under the child's pid: %s\n", isset($bySymbol[$forked]['parent_work']) ? 'no' : 'yes');
$pids = $stream->pids();
printf("only the two pids: %s\n", array_diff($pids, [$parent, $forked]) === [] ? 'yes' : 'no (' . implode(',', $pids) . ')');
var_dump($stream->invalid);
?>
--EXPECT--
int(0)
bool(true)
parent before fork: true
parent after fork: true
parent after the child exited: true
child after fork as its mode says: true
child pid(): true
child activate() as its mode says: true
child after activate: true
child deactivate(): true
child after deactivate: false
parent_work sampled in the parent: yes
child_work sampled with the child's pid: yes
child_work never under the parent's pid: yes
parent_work never under the child's pid: yes
only the two pids: yes
array(0) {
}
