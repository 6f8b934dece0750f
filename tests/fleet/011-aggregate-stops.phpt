--TEST--
fleet: aggregate stopped by SIGTERM or SIGINT after files exist (from an earlier run, after one flush, after several) or in the middle of a flush (a signal, or a kill, while it merges into a file): the files hold every sample shipped, once, and nothing is left pending
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['redis-server'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';

/*
 * The files of a period are rewritten with what they held plus what is held
 * in memory: a stop that cut the read of what they held short (SIGTERM ends
 * every read of statq's input) rewrote them with only what was read since
 * the last flush, then acknowledged everything. The truth: the recording's
 * own fold, times the number of times it was shipped.
 */
$dir = stat_test_dir();
$redis = new FleetRedis();
$file = statq_record_script(statq_hot_script(600), ['stat.interval' => '200', 'stat.stack' => '16']);
[, $folded] = statq_run(['fold', '-f', $file]);
$one = statq_parse_folded($folded);
$times = fn(int $n): array => array_map(fn($count) => $count * $n, $one);

/* ship the recording once more to the stream; the entries it added */
$ship = function (string $stream) use ($redis, $file): int {
    $before = count($redis->entries($stream));
    [$code, , $err] = statq_run(['ship', '-f', $file, '--redis', $redis->url(), '--stream', $stream, '--batch', '50']);
    if ($code !== 0) {
        echo "ship: exit $code: $err\n";
    }
    return count($redis->entries($stream)) - $before;
};
$aggregate = fn(string $stream, array $more = []) => array_merge(['aggregate', '--redis', $redis->url(),
    '--stream', $stream, '--group', 'g', '--dir', "$dir/$stream"], $more);
$daily = fn(string $stream): array => fleet_folded("$dir/$stream/daily/*.all.folded*");
$hourly = fn(string $stream): array => fleet_folded("$dir/$stream/hourly/*.all.folded*");
$check = function (string $what, string $stream, int $shipped, ?int $code) use ($redis, $daily, $hourly, $times) {
    printf("%s: exit %s, daily all = %d x the recording: %s, hourly too: %s, pending: %d, journal: %s\n", $what,
        var_export($code, true), $shipped, $daily($stream) === $times($shipped) ? 'yes' : 'no',
        $hourly($stream) === $times($shipped) ? 'yes' : 'no', $redis->pending($stream, 'g'),
        file_exists(stat_test_dir() . "/$stream/.journal") ? 'left' : 'gone');
};
/* read by the running aggregator: pending, or already written */
$read = fn(string $stream, int $new, int $shipped) => stat_test_until(fn() => $redis->pending($stream, 'g') === $new
    || ($redis->pending($stream, 'g') === 0 && $daily($stream) === $times($shipped)));

/* 1. files written by an earlier run; this one holds new entries when stopped */
foreach (['term' => SIGTERM, 'int' => SIGINT] as $name => $signal) {
    $stream = "earlier-$name";
    $ship($stream);
    [$code] = statq_run($aggregate($stream, ['--once', '--consumer', 'a']));
    $new = $ship($stream);
    $a = new Statq($aggregate($stream, ['--consumer', 'a', '--flush', '3600']));
    printf("earlier run, %s: read: %s\n", $name, stat_test_until(fn() => $redis->pending($stream, 'g') === $new) ? 'yes' : 'no');
    $a->signal($signal);
    $check("earlier run, $name", $stream, 2, $a->wait());
}

/* 2. after one and after several flushes of this run */
foreach (['after one flush' => 2, 'after three flushes' => 4] as $name => $ships) {
    $stream = 'flushes-' . $ships;
    $a = new Statq($aggregate($stream, ['--consumer', 'a', '--flush', '1']));
    for ($n = 1; $n < $ships; $n++) {
        $ship($stream);
        if (!stat_test_until(fn() => $redis->pending($stream, 'g') === 0 && $daily($stream) === $times($n))) {
            echo "$name: flush $n not seen\n";
        }
    }
    $new = $ship($stream);
    printf("%s: read: %s\n", $name, $read($stream, $new, $ships) ? 'yes' : 'no');
    $a->signal($ships === 2 ? SIGINT : SIGTERM);
    $check($name, $stream, $ships, $a->wait());
}

/* 3. a signal while it merges into a file that exists: the flush completes */
$stream = 'mid-flush';
$ship($stream);
statq_run($aggregate($stream, ['--once', '--consumer', 'a']));
$new = $ship($stream);
putenv('STATQ_AGGREGATE_SIGNAL=merging');
$a = new Statq($aggregate($stream, ['--consumer', 'a', '--flush', '1']));
putenv('STATQ_AGGREGATE_SIGNAL');
$check('SIGTERM while merging', $stream, 2, $a->wait());

/* 4. killed while it merges: nothing acknowledged, all read again by the next run */
$stream = 'mid-flush-kill';
$ship($stream);
statq_run($aggregate($stream, ['--once', '--consumer', 'a']));
$new = $ship($stream);
putenv('STATQ_AGGREGATE_CRASH=merging');
[$code] = statq_run($aggregate($stream, ['--once', '--consumer', 'a']));
putenv('STATQ_AGGREGATE_CRASH');
printf("killed while merging: exit %d, pending: %s, files as before: %s\n", $code,
    $redis->pending($stream, 'g') === $new ? 'all it read' : $redis->pending($stream, 'g'), $daily($stream) === $times(1) ? 'yes' : 'no');
[$code] = statq_run($aggregate($stream, ['--once', '--consumer', 'a']));
$check('killed while merging, then again', $stream, 2, $code);
?>
--EXPECT--
earlier run, term: read: yes
earlier run, term: exit 0, daily all = 2 x the recording: yes, hourly too: yes, pending: 0, journal: gone
earlier run, int: read: yes
earlier run, int: exit 0, daily all = 2 x the recording: yes, hourly too: yes, pending: 0, journal: gone
after one flush: read: yes
after one flush: exit 0, daily all = 2 x the recording: yes, hourly too: yes, pending: 0, journal: gone
after three flushes: read: yes
after three flushes: exit 0, daily all = 4 x the recording: yes, hourly too: yes, pending: 0, journal: gone
SIGTERM while merging: exit 0, daily all = 2 x the recording: yes, hourly too: yes, pending: 0, journal: gone
killed while merging: exit 9, pending: all it read, files as before: yes
killed while merging, then again: exit 0, daily all = 2 x the recording: yes, hourly too: yes, pending: 0, journal: gone
