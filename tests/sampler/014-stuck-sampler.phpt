--TEST--
sampler: a sampler thread held still (ptrace, as a debugger would) never blocks PHP: deactivate() gives up after a second and counts it, activate() is refused at once while the thread is held and works again once it runs, and the process exits cleanly with the thread still held
--SKIPIF--
<?php
require __DIR__ . '/../unit/unit.inc';
if (!stat_unit_cc()) die('skip no C compiler');
if (preg_match('/stat\.sampler=pool/', (string) getenv('TEST_PHP_EXTRA_ARGS'))) die('skip stat.sampler=pool has no sampler thread to hold (tests/poolsampler/002 stops the pool sampler instead)');
$scope = trim((string) @file_get_contents('/proc/sys/kernel/yama/ptrace_scope'));
$root = preg_match('/^Uid:\s+\d+\s+0\s/m', (string) @file_get_contents('/proc/self/status')) === 1;
if (!$root && $scope !== '' && $scope !== '0') die("skip ptrace of another process needs root (kernel.yama.ptrace_scope=$scope)");
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';
require __DIR__ . '/../unit/unit.inc';

$dir = stat_test_dir();
[$code, $out] = stat_unit_exec([stat_unit_cc(), '-Wall', '-Wextra', '-Werror', '-o', "$dir/stall", __DIR__ . '/stall.c']);
if ($code !== 0) {
    die("cc stall.c failed: $out");
}

/* the helper that holds a thread: its first line says whether it does */
function stall(string $dir, int $tid): array
{
    $process = proc_open(["$dir/stall", (string) $tid], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    stream_set_timeout($pipes[1], 30);
    return [$process, $pipes, trim((string) fgets($pipes[1]))];
}
function unstall(array $stall): string
{
    [$process, $pipes] = $stall;
    @fwrite($pipes[0], "go\n"); /* (it may have ended already: "gone") */
    $line = trim((string) fgets($pipes[1]));
    fclose($pipes[0]);
    fclose($pipes[1]);
    proc_close($process);
    return $line;
}

$child = new StatChild(['stat.auto' => '0', 'stat.interval' => '1000'], <<<'PHP'
<?php
/* the sampler thread names itself "stat sampler" once it runs */
function sampler_tid(): int {
    $deadline = microtime(true) + 10;
    do {
        foreach (glob('/proc/self/task/*/comm') as $comm) {
            if (trim((string) @file_get_contents($comm)) === 'stat sampler') {
                return (int) basename(dirname($comm));
            }
        }
        usleep(1000); /* polling the thread's start, with a deadline */
    } while (microtime(true) < $deadline);
    return 0;
}
$r = ['activate' => stat\sampler\activate()];
echo "tid ", sampler_tid(), "\n";
fgets(STDIN);
$t = hrtime(true);
$r['deactivate'] = stat\sampler\deactivate();
$r['waited at least 1 s'] = hrtime(true) - $t >= 1000000000;
$r['stuck'] = stat\counters()['samplers_stuck'];
$r['places held'] = stat\counters()['samplers_active'];
$r['activate while held'] = stat\sampler\activate();
$r['stuck then'] = stat\counters()['samplers_stuck'];
echo json_encode($r), "\n";
fgets(STDIN);
/* released: it parks as soon as it runs */
$deadline = microtime(true) + 10;
while (!($again = stat\sampler\activate()) && microtime(true) < $deadline) {
    usleep(1000); /* polling with a deadline */
}
/* (each start refused while the thread had not parked yet counted too: a few on a busy machine) */
$stuck = stat\counters()['samplers_stuck'];
$r = ['activate once released' => $again, 'stuck so far at least 2' => $stuck >= 2, 'deactivate' => stat\sampler\deactivate(),
      'activate' => stat\sampler\activate(), 'stuck no more' => stat\counters()['samplers_stuck'] === $stuck];
/* the sampler started again writes: its first sample, waited for with a deadline (a busy machine may not have run it yet) */
$deadline = microtime(true) + 10;
while (stat\counters()['samples_written'] === 0 && microtime(true) < $deadline) {
    usleep(1000); /* polling with a deadline */
}
$r['written'] = stat\counters()['samples_written'] > 0;
echo json_encode($r), "\n";
echo "again: tid ", sampler_tid(), " ready\n";
fgets(STDIN);
echo "exiting with the thread held\n";
PHP);

var_dump($child->waitFor("\n"));
$tid = (int) substr(trim($child->stdout()), 4);
printf("sampler thread found: %s\n", $tid > 0 ? 'yes' : 'no');
$stall = stall($dir, $tid);
echo "stall: $stall[2]\n";
$child->send("held\n");
var_dump($child->waitFor("}\n"));
echo "stall: ", unstall($stall), "\n";
$child->send("released\n");
var_dump($child->waitFor(" ready\n"));
preg_match('/again: tid (\d+) ready/', $child->stdout(), $m);
$stall = stall($dir, (int) ($m[1] ?? 0));
echo "stall: $stall[2]\n";
$child->send("exit\n");
var_dump($child->wait());
echo "stall: ", unstall($stall), "\n";
$lines = explode("\n", trim($child->stdout()));
echo implode("\n", [$lines[1], $lines[2], $lines[4]]), "\n";
var_dump($child->stderr());
?>
--EXPECT--
bool(true)
sampler thread found: yes
stall: stopped
bool(true)
stall: released
bool(true)
stall: stopped
int(0)
stall: gone
{"activate":true,"deactivate":true,"waited at least 1 s":true,"stuck":1,"places held":0,"activate while held":false,"stuck then":2}
{"activate once released":true,"stuck so far at least 2":true,"deactivate":true,"activate":true,"stuck no more":true,"written":true}
exiting with the thread held
string(0) ""
