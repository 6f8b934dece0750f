--TEST--
soak: STAT_SOAK_SECONDS (600 by default) of churn at stat.interval=10 with stat.stack=64 under the tracing JIT (in pool mode when run with stat.sampler=pool, or STAT_SOAK_SAMPLER=pool), two validating clients and one that never reads: no invalid line, samples + lost = written (+ dropped) for each, resident memory of PHP, of the listener (and of the pool sampler) flat after the warm-up
--SKIPIF--
<?php
if (!getenv('STAT_TEST_HEAVY')) die('skip set STAT_TEST_HEAVY');
require __DIR__ . '/../stacks/stacks.inc';
if (!is_readable('/proc/self/status')) die('skip needs /proc');
if (stat_stacks_opcache_ini() === null) die('skip opcache cannot be loaded in a child');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/soak.inc';
require __DIR__ . '/../stacks/stacks.inc';

/*
 * The duration is a setting (STAT_SOAK_SECONDS, by hand: 60 for a quick
 * look); nothing here depends on how fast the machine is: the child churns
 * for that long whatever it gets done, the readers keep up or are told what
 * they lost (and the accounting must hold either way), and memory is
 * compared after a warm-up, not against a rate.
 */
$seconds = max(30, (int) (getenv('STAT_SOAK_SECONDS') ?: 600));
/*
 * PHP's heap, opcache's and the JIT's buffers, stat's string arena and the
 * listener's buffers fill during the warm-up; it ends after that many seconds
 * and once the ring went round twice (its pages are then all resident in
 * both processes, however slowly the machine filled it).
 */
$warmup = min(120, max(15, intdiv($seconds, 4)));
$ring = 16384;
/* the pass's sampler (scripts/test runs the soak again with -d stat.sampler=pool), or the one STAT_SOAK_SAMPLER names */
$sampler = getenv('STAT_SOAK_SAMPLER') ?: (ini_get('stat.sampler') ?: 'request');
$warmedAt = null;
/* growth allowed after the warm-up: less than one ZendMM chunk (2 MiB) */
$bound = 2048;

$dir = stat_test_dir();
mkdir("$dir/changing");
file_put_contents("$dir/blacklist.txt", "$dir/changing/\n");
$ini = stat_stacks_opcache_ini() + [
    'opcache.enable_cli' => '1',
    'opcache.jit' => 'tracing',
    'opcache.jit_buffer_size' => '32M',
    'opcache.blacklist_filename' => "$dir/blacklist.txt",
    'memory_limit' => '256M',
    'stat.stream' => "unix://$dir/stream.sock",
    'stat.auto' => '0',
    'stat.interval' => '10',
    'stat.stack' => '64',
    'stat.samples' => (string) $ring,
    'stat.sampler' => $sampler,
];
$child = new StatChild($ini, STAT_SOAK_CHURN, [], [(string) $seconds, "$dir/changing"]);
$ready = $child->waitFor("ready ") && $child->waitFor("\n");
[, $pid, $listener, $jit, $pool] = preg_match('/^ready (\d+) (\d+) (\w+) (\d+)$/m', $child->stdout(), $m) ? $m : [0, 0, 0, '?', 0];
$pool = (int) $pool;
$pid = (int) $pid;
$listener = (int) $listener;
printf("ready: %s\n", $ready && $pid === $child->pid() && $listener > 0 && ($pool > 0) === ($sampler === 'pool')
    ? 'yes' : 'no: ' . $child->stdout() . $child->stderr());
printf("jit: %s\n", $jit);

$clients = [new StatSoakClient(stat_test_connect("$dir/stream.sock"), $pid), new StatSoakClient(stat_test_connect("$dir/stream.sock"), $pid)];
/* connected for the whole run, never read until the child stopped sampling */
$stuck = stat_test_connect("$dir/stream.sock");
$child->send("go\n");

$start = microtime(true);
$rss = []; /* the listener's: [seconds, KiB] (the child reports its own once a second) */
$poolRss = []; /* the pool sampler's, in pool mode */
$nextRss = $start;
$nextProgress = $start + 30;
$ended = false;
$deadline = $start + $seconds + 300;
while (microtime(true) < $deadline) {
    $read = [];
    foreach ($clients as $client) {
        $client->pump();
        if (!$client->eof) {
            $read[] = $client->socket;
        }
    }
    if ($child->waitFor("end\n", 0.0)) {
        $ended = true;
        break;
    }
    $now = microtime(true);
    if ($warmedAt === null && $now - $start >= $warmup && min($clients[0]->accounted(), $clients[1]->accounted()) >= 2 * $ring) {
        $warmedAt = (int) ceil($now - $start);
    }
    if ($now >= $nextRss) {
        $rss[] = [$now - $start, stat_soak_rss($listener)];
        if ($pool > 0) {
            $poolRss[] = [$now - $start, stat_soak_rss($pool)];
        }
        $nextRss += 5;
    }
    if ($now >= $nextProgress) {
        /* run-tests ends a test that prints nothing for 60 s */
        $reported = preg_match_all('/^memory \d+ (\d+) (\d+)$/m', $child->stdout(), $found) ? [end($found[1]), intdiv((int) end($found[2]), 1024)] : [0, 0];
        printf("soak: %d s, %d samples read, RSS: listener %d KiB, php %d KiB (heap %d KiB)\n", (int) ($now - $start), $clients[0]->samples,
            end($rss)[1] ?? 0, $reported[0], $reported[1]);
        $nextProgress += 30;
    }
    if ($read) {
        $write = $except = null;
        @stream_select($read, $write, $except, 0, 20000);
    } else {
        $child->waitFor("end\n", 0.02);
    }
}
$elapsed = microtime(true) - $start;
printf("end: %s\n", $ended ? 'yes' : 'no: ' . $child->stdout() . $child->stderr());
$counters = stat_soak_counters($child);
/*
 * Every position of the ring a sampler took reaches each reader as a sample
 * or within a lost count; a sample whose slot was taken over by a later lap
 * while it was written (its sampler paused that long) is counted dropped,
 * not written: written + dropped is every position taken (the ring's head).
 */
$written = ($counters['samples_written'] ?? -1) + ($counters['samples_dropped'] ?? 0);

/* sampling stopped: every client, the stuck one too, gets every sample written or is told it lost it */
$clients[] = new StatSoakClient($stuck, $pid);
$complete = true;
$deadline = microtime(true) + 50; /* run-tests ends a test that prints nothing for 60 s */
foreach ($clients as $client) {
    $complete = $client->readUntil(fn($c) => $c->accounted() >= $written, max(0.0, $deadline - microtime(true))) && $complete;
}
printf("every client complete: %s\n", $complete ? 'yes' : 'no');
printf("every position taken is written or dropped: %s\n", ($counters['ring_head'] ?? null) === $written ? 'yes' : json_encode($counters));
printf("exit: %s\n", var_export($child->wait(), true));
$eof = true;
$deadline = microtime(true) + 30;
foreach ($clients as $client) {
    $eof = $client->readUntil(fn($c) => $c->eof, max(0.0, $deadline - microtime(true))) && $eof;
}
printf("every client at EOF: %s\n", $eof ? 'yes' : 'no');
printf("stderr: %s\n", var_export($child->stderr(), true));

foreach (['reader 1', 'reader 2', 'never read'] as $i => $name) {
    $c = $clients[$i];
    printf("%s: %d invalid, %d of the wrong shape, broken end %s, samples + lost = written: %s\n", $name, $c->invalid, $c->badShape,
        var_export($c->rest(), true), $c->accounted() === $written ? 'yes' : "no ({$c->samples} + {$c->lost} of $written)");
    foreach ($c->examples as $example) {
        echo "  $example\n";
    }
}
$kinds = array_keys($clients[0]->kinds + $clients[1]->kinds);
sort($kinds);
echo 'constructs sampled: ', implode(',', $kinds), "\n";
printf("cut stacks (deeper than 64): %s\n", $clients[0]->truncated + $clients[1]->truncated > 0 ? 'some' : 'none');

/*
 * Resident memory: the first reading after the warm-up against every later
 * one. PHP's: outside its heap (VmRSS less memory_get_usage()): PHP keeps a
 * little for every script it compiles, stat's memory is all outside the heap.
 */
$php = [];
preg_match_all('/^memory (\d+) (\d+) (\d+)$/m', $child->stdout(), $found, PREG_SET_ORDER);
foreach ($found as [, $second, $resident, $heap]) {
    $php[] = [(int) $second, (int) $resident - intdiv((int) $heap, 1024), (int) $resident];
}
$problems = [];
if ($warmedAt === null) {
    $problems[] = 'the ring did not go round twice (' . min($clients[0]->accounted(), $clients[1]->accounted()) . " samples of $ring)";
}
foreach (['php outside the heap' => $php, 'listener' => $rss] + ($pool > 0 ? ['pool sampler' => $poolRss] : []) as $name => $readings) {
    $after = array_values(array_filter($readings, fn($r) => $warmedAt !== null && $r[0] >= $warmedAt && $r[1] !== null));
    if (count($after) < 2 || !$readings) {
        $problems[] = "$name: too few readings after the warm-up";
        printf("%s RSS: no figures\n", $name);
        continue;
    }
    $values = array_column($after, 1);
    $first = $values[0];
    $growth = max($values) - $first;
    $figures = sprintf('%s RSS: %d KiB at start, %d KiB after the %d s warm-up, %d KiB at most after it, %d KiB at the end (growth %d KiB)',
        $name, $readings[0][1], $first, $warmedAt, max($values), end($values), $growth);
    echo "$figures\n";
    if ($growth >= $bound) {
        $problems[] = $figures;
    }
}
$heap = array_column($php, 2);
printf("php RSS with the heap: %d KiB at start, %d KiB at the end\n", $heap[0] ?? 0, end($heap));
$summary = sprintf('soak: %d s, %s compiles, %d samples written, %d dropped, %d failed, received %d and %d (lost %d and %d), never-reading client lost %d, %d RSS readings',
    (int) $elapsed, preg_match('/^rounds (\d+) (\d+)$/m', $child->stdout(), $m) ? "$m[1] rounds, $m[2]" : '?', $counters['samples_written'] ?? -1, $counters['samples_dropped'] ?? -1, $counters['samples_failed'] ?? -1,
    $clients[0]->samples, $clients[1]->samples, $clients[0]->lost, $clients[1]->lost, $clients[2]->lost, count($rss));
echo "$summary\n";
printf("resident memory flat after the warm-up (< %d KiB growth): %s\n", $bound, $problems ? 'no: ' . implode('; ', $problems) : 'yes');
printf("samplers running after: %s\n", var_export($counters['samplers_active'] ?? null, true));
printf("listener gone after the exit: %s\n", stat_test_wait_dead($listener, 10.0) ? 'yes' : 'no');
?>
--EXPECTF--
ready: yes
jit: on
%r(soak: \d+ s, [^\n]*\n)*%rend: yes
every client complete: yes
every position taken is written or dropped: yes
exit: 0
every client at EOF: yes
stderr: ''
reader 1: 0 invalid, 0 of the wrong shape, broken end '', samples + lost = written: yes
reader 2: 0 invalid, 0 of the wrong shape, broken end '', samples + lost = written: yes
never read: 0 invalid, 0 of the wrong shape, broken end '', samples + lost = written: yes
constructs sampled: callback,closure,destructor,eval,exception,fiber,generator,include,magic,recursion
cut stacks (deeper than 64): some
php outside the heap RSS: %d KiB at start, %d KiB after the %d s warm-up, %d KiB at most after it, %d KiB at the end (growth %i KiB)
listener RSS: %d KiB at start, %d KiB after the %d s warm-up, %d KiB at most after it, %d KiB at the end (growth %i KiB)
%r(pool sampler RSS: \d+ KiB at start, \d+ KiB after the \d+ s warm-up, \d+ KiB at most after it, \d+ KiB at the end \(growth -?\d+ KiB\)\n)?%rphp RSS with the heap: %d KiB at start, %d KiB at the end
soak: %d s, %d rounds, %d compiles, %d samples written, %d dropped, %d failed, received %d and %d (lost %d and %d), never-reading client lost %d, %d RSS readings
resident memory flat after the warm-up (< 2048 KiB growth): yes
samplers running after: 0
listener gone after the exit: yes
