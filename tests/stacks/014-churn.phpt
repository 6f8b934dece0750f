--TEST--
stacks: churn at 10us with stat.stack=64 for 3 s (closures made and freed, eval in a loop, generators, fibers, exceptions): every line valid, every stack well-formed and one the script could have had, only real names
--SKIPIF--
<?php if (!getenv('STAT_TEST_HEAVY')) die('skip set STAT_TEST_HEAVY'); ?>
--INI--
memory_limit=1024M
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stacks.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '10', 'stat.stack' => '64', 'stat.samples' => '2000'], <<<'PHP'
<?php
class ChurnError extends RuntimeException {}
function make_closure(int $i): Closure {
    $k = $i;
    return function (int $x) use ($k): int { return $x * $k + strlen(str_repeat('a', $k % 50)); };
}
function gen(int $n) {
    for ($i = 0; $i < $n; $i++) {
        yield $i => md5((string) $i);
    }
}
function thrower(int $i): int {
    if ($i % 3 === 0) {
        throw new ChurnError("e$i");
    }
    return $i;
}
function nested(int $depth, int $i): int {
    return $depth > 0 ? nested($depth - 1, $i) : churn_once($i);
}
function churn_once(int $i): int {
    $f = make_closure($i);
    $t = $f($i);
    unset($f);
    /* eval'd code that runs long enough to be sampled in every run, even under the sanitizers on a busy machine */
    $t += eval('$e = 0; for ($j = 0; $j < 300; $j++) { $e += $j; } return $e + ' . $i . ' + strlen("x");');
    foreach (gen(20) as $k => $v) {
        $t += $k;
    }
    $fiber = new Fiber(function (int $x): int {
        $y = Fiber::suspend($x + 1);
        return $y * 2;
    });
    $t += $fiber->start($i);
    $fiber->resume(3);
    $t += $fiber->getReturn();
    try {
        $t += thrower($i);
    } catch (ChurnError $e) {
        $t += strlen($e->getMessage());
    }
    if ($i % 50 === 0) {
        eval('function churn_eval_' . $i . '() { return ' . $i . '; }');
        $t += ('churn_eval_' . $i)();
    }
    return $t;
}
echo "ready\n";
fgets(STDIN);
/* 3 s, and at least 3,000 samples (a slow or busy machine gets more time: at most 30 s) */
$start = microtime(true);
for ($i = 0; (microtime(true) - $start < 3 || stat\counters()['samples_written'] < 3000) && microtime(true) - $start < 30; $i++) {
    nested($i % 70, $i);
}
echo "done\n";
PHP);

var_dump($child->waitFor("ready\n"));
$stream = stat_test_connect("$dir/stream.sock");
$child->send("go\n");

/* read and check every line as it comes, keeping only counts */
$known = '/^(make_closure|gen|thrower|nested|churn_once|\{closure\}|\{fiber\}|churn_eval_\d+|\[truncated\]|str_repeat|md5|microtime|fgets|start|resume|suspend|getReturn|getMessage|__construct|stat\\\\.*)$/';
$lines = $invalid = $samples = $stacks = $deep = $unrooted = 0;
$problems = $unknown = $files = [];
$buffer = '';
$deadline = microtime(true) + 60;
stream_set_blocking($stream, false);
while (microtime(true) < $deadline) {
    $read = [$stream];
    $write = $except = null;
    if (@stream_select($read, $write, $except, 0, 100000) > 0) {
        $data = fread($stream, 1 << 20);
        if ($data === '' || $data === false) {
            if (feof($stream)) {
                break;
            }
            continue;
        }
        $buffer .= $data;
        $lines_in = explode("\n", $buffer);
        $buffer = array_pop($lines_in);
        foreach ($lines_in as $line) {
            $lines++;
            $sample = json_decode($line, true);
            if (!is_array($sample) || !isset($sample['type'])) {
                $invalid++;
                continue;
            }
            if ($sample['type'] === 'lost' || $sample['type'] === 'status') {
                continue;
            }
            $samples++;
            foreach (stat_stacks_problems($sample, 64) as $problem) {
                $problems[$problem] = true;
            }
            if (!isset($sample['stack'])) {
                continue;
            }
            $stacks++;
            if (count($sample['stack']) >= 20) {
                $deep++;
            }
            /*
             * A whole stack ends at the script's top-level code (or is cut at
             * 64). One exception: inside Fiber::suspend() the engine detaches
             * the fiber (its bottom frame's prev is set to NULL) before it
             * switches back, so a sample there ends at "{fiber}".
             */
            $root = $sample['stack'][count($sample['stack']) - 1];
            $suspending = ($root['function'] ?? null) === '{fiber}' && isset($sample['stack'][0]['scope']) &&
                $sample['stack'][0]['scope'] === 'Fiber' && $sample['stack'][0]['function'] === 'suspend';
            if (!$suspending && ($root['function'] ?? null) !== '[truncated]' && (isset($root['function']) || stat_stacks_path($root['file'] ?? '') !== 'child.php')) {
                if ($unrooted++ < 3) {
                    $problems['not rooted: ' . implode(' <- ', array_map('stat_stacks_frame', $sample['stack']))] = true;
                }
            }
            if (isset($sample['symbol']) && ($sample['stack'][0]['function'] ?? null) !== $sample['symbol']['function']) {
                $problems['leaf frame is not the symbol'] = true;
            }
            /* a stack the script could not have had: a built-in function that never calls back under a call, a fiber spliced onto another caller */
            $impossible = stat_stacks_impossible($sample['stack'], ['md5', 'str_repeat', 'microtime', 'strlen'],
                [], $known);
            if ($impossible !== null) {
                $problems["impossible: $impossible"] = true;
            }
            foreach ($sample['stack'] as $frame) {
                if (isset($frame['function']) && !preg_match($known, $frame['function'])) {
                    $unknown[$frame['function']] = true;
                }
                if (isset($frame['file'])) {
                    $files[preg_replace('/\(\d+\)/', '(N)', stat_stacks_path($frame['file']))] = true;
                }
            }
        }
    }
}
$status = $child->wait();
printf("child exit: %s, output: %s", var_export($status, true), $child->stdout());
var_dump($child->stderr());
/*
 * A line cut at the end is the listener's drain deadline at exit (it closes a
 * client that is still behind, possibly mid-line: reported, a stream matter);
 * only the end of the stream is checked here, not that last piece.
 */
printf("read to the end: %s\n", feof($stream) ? 'yes' : 'no');
printf("invalid lines: %d\n", $invalid);
printf("many samples with stacks: %s\n", $stacks >= 1000 ? 'yes' : "no ($stacks of $samples)");
printf("deep stacks seen: %s\n", $deep >= 100 ? 'yes' : "no ($deep)");
printf("stacks not rooted in the script: %d\n", $unrooted);
echo "problems:\n";
var_dump(array_keys($problems));
echo "unknown functions:\n";
var_dump(array_keys($unknown));
ksort($files);
echo "files: ", implode(', ', array_keys($files)), "\n";
?>
--EXPECT--
bool(true)
child exit: 0, output: ready
done
string(0) ""
read to the end: yes
invalid lines: 0
many samples with stacks: yes
deep stacks seen: yes
stacks not rooted in the script: 0
problems:
array(0) {
}
unknown functions:
array(0) {
}
files: child.php, child.php(N) : eval()'d code
