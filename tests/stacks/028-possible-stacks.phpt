--TEST--
stacks: on a loaded machine, at 10 us, every stack is one the program could have had: a VM stack slot reused by the next call at the same depth (microtime, then work(), from one line) never joins a call to the wrong caller, a fiber resumed and suspended in a tight loop is never spliced onto a call made between its resumptions (nor its resumer read after it suspended), eval()'d code freed and compiled again never gives a name that is not its own; a call under its caller at the line of the caller's neighbouring call (a caller copied just before or after the call was made: the copy of one iovec is not of one moment) in at most 1 stack in 200
--SKIPIF--
<?php if (!getenv('STAT_TEST_HEAVY')) die('skip set STAT_TEST_HEAVY'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';
require __DIR__ . '/possible.inc';

/* two busy processes, so that the sampler thread is preempted in its copies as on a loaded machine */
$hogs = [];
for ($i = 0; $i < 2; $i++) {
    $hogs[] = proc_open([PHP_BINARY, '-n', '-r', '$e = time() + 60; while (time() < $e);'],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $unused);
}

$problems = $lines = [];
$stacks = 0;
$seen = [];
$samples = stat_stacks_run(['stat.interval' => '10', 'stat.stack' => '64', 'stat.samples' => '100000'], STAT_STACKS_POSSIBLE, $child, function (array $sample) use (&$problems, &$lines, &$stacks, &$seen) {
    if (!isset($sample['stack'])) {
        return false;
    }
    $stacks++;
    $problem = stat_stacks_impossible($sample['stack'],
        ['microtime', 'strlen', 'str_repeat', 'mt_rand', 'md5', 'Fiber::__construct'],
        [
            /* (the fiber made once, at the script's start: a tick can land in its constructor) */
            'Fiber::__construct' => ['' => [20]],
            'Controller::handle' => ['work' => [10]],
            'work' => ['' => [30]],
            'inner_a' => ['' => [31]],
            'inner_b' => ['{closure}' => [22]],
            'Fiber::suspend' => ['{closure}' => [23]],
            'Fiber::resume' => ['' => [32]],
            'microtime' => ['' => [29]],
            'mt_rand' => ['' => [33]],
        ],
        '/^(Controller|handle|work|inner_a|inner_b|\{closure\}|\{fiber\}|microtime|strlen|str_repeat|mt_rand|md5|suspend|resume|start|__construct|json_encode|file_put_contents|stat\\\\.*)$/');
    if ($problem !== null && str_starts_with($problem, 'at another line: ')) {
        $lines[$problem] = ($lines[$problem] ?? 0) + 1;
    } elseif ($problem !== null) {
        $problems[$problem] = ($problems[$problem] ?? 0) + 1;
    }
    foreach ($sample['stack'] as $frame) {
        $seen[$frame['function'] ?? (strpos($frame['file'] ?? '', 'eval') !== false ? '(eval)' : '(top)')] = true;
    }
    return false;
});
foreach ($hogs as $hog) {
    proc_terminate($hog, 9);
    proc_close($hog);
}
printf("stacks: %s\n", $stacks >= 20000 ? 'enough' : $stacks);
$want = ['handle', 'work', 'inner_a', 'inner_b', '{fiber}', 'resume', 'microtime', '(eval)'];
printf("every part sampled: %s\n", array_diff($want, array_keys($seen)) === [] ? 'yes' : 'no: ' . implode(', ', array_diff($want, array_keys($seen))));
echo "impossible stacks:\n";
arsort($problems);
foreach (array_slice($problems, 0, 10, true) as $problem => $count) {
    echo "  $count x $problem\n";
}
$other = array_sum($lines);
printf("at a neighbouring line: %s\n", $other * 200 <= $stacks ? 'at most 1 in 200' : "$other of $stacks: " . json_encode(array_slice($lines, 0, 5, true)));
?>
--EXPECT--
exit: 0
stderr: ''
invalid lines: 0
stacks: enough
every part sampled: yes
impossible stacks:
at a neighbouring line: at most 1 in 200
