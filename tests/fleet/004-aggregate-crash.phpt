--TEST--
fleet: aggregate killed with entries pending (at its commit point, after its renames, by SIGKILL while reading) and started again, or stopped by SIGTERM: nothing lost, nothing counted twice, nothing left pending
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['redis-server'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
$redis = new FleetRedis();
$file = statq_record_script(statq_hot_script(1000), ['stat.interval' => '200', 'stat.stack' => '16']);
[$code, $folded] = statq_run(['fold', '-f', $file]);
$expected = statq_parse_folded($folded);
[$code, , $err] = statq_run(['ship', '-f', $file, '--redis', $redis->url(), '--stream', 'stat:samples', '--batch', '50']);
$entries = count($redis->entries('stat:samples'));
printf("shipped: exit %d, entries: %s\n", $code, $entries >= 10 ? 'yes' : "no ($entries)\n$err");
$aggregate = fn(string $group, string $out, array $more = []) => array_merge(['aggregate', '--redis', $redis->url(),
    '--stream', 'stat:samples', '--group', $group, '--dir', "$dir/$out"], $more);
$show = fn(string $text): string => trim(preg_replace('/; 0 malformed.*/', '', str_replace($dir, 'DIR', $text)));

foreach (['committed', 'renamed'] as $stage) {
    /* killed at once at that stage of its write: the entries are not acknowledged yet */
    putenv("STATQ_AGGREGATE_CRASH=$stage");
    [$code, , $err] = statq_run($aggregate("g-$stage", $stage, ['--once', '--consumer', 'a']));
    putenv('STATQ_AGGREGATE_CRASH');
    printf("%s: killed: exit %d, journal left: %s, pending: %s\n", $stage, $code, file_exists("$dir/$stage/.journal") ? 'yes' : 'no',
        $redis->pending('stat:samples', "g-$stage") === $entries ? 'all' : $redis->pending('stat:samples', "g-$stage"));
    [$code, , $err] = statq_run($aggregate("g-$stage", $stage, ['--once', '--consumer', 'a']));
    printf("%s: again: exit %d, %s\n", $stage, $code, $show($err));
    printf("%s: daily all = the recording's fold: %s, hourly too: %s, pending: %d, journal: %s\n", $stage,
        fleet_folded("$dir/$stage/daily/*.all.folded*") === $expected ? 'yes' : 'no',
        fleet_folded("$dir/$stage/hourly/*.all.folded*") === $expected ? 'yes' : 'no',
        $redis->pending('stat:samples', "g-$stage"), file_exists("$dir/$stage/.journal") ? 'left' : 'gone');
}

/* SIGKILL while it holds what it read (it writes every hour only); another consumer takes the entries over
   (XAUTOCLAIM, and the XPENDING + XCLAIM way of Redis before 6.2) */
foreach (['kill' => [], 'xclaim' => ['STATQ_AGGREGATE_XCLAIM' => '1']] as $kind => $env) {
    $a = new Statq($aggregate("g-$kind", $kind, ['--consumer', 'a', '--flush', '3600']));
    printf("read, not written: %s\n", stat_test_until(fn() => $redis->pending('stat:samples', "g-$kind") === $entries) ? 'yes' : 'no');
    $a->signal(SIGKILL);
    $a->wait();
    printf("killed: pending: %s, written: %s\n", $redis->pending('stat:samples', "g-$kind") === $entries ? 'all' : 'some',
        glob("$dir/$kind/daily/*.folded*") ? 'something' : 'nothing');
    foreach ($env as $name => $value) {
        putenv("$name=$value");
    }
    [$code, , $err] = statq_run($aggregate("g-$kind", $kind, ['--once', '--consumer', 'b', '--claim-idle', '0']));
    foreach ($env as $name => $value) {
        putenv($name);
    }
    printf("consumer b: exit %d, took them over: %s\n", $code, preg_match("/took over $entries entries left pending by another consumer of g-$kind/", $err) ? 'yes' : "no\n$err");
    printf("%s: daily all = the recording's fold: %s, pending: %d\n", $kind, fleet_folded("$dir/$kind/daily/*.all.folded*") === $expected ? 'yes' : 'no',
        $redis->pending('stat:samples', "g-$kind"));
}

/* SIGTERM: what it read is written before it exits */
$a = new Statq($aggregate('g-term', 'term', ['--consumer', 'a', '--flush', '3600']));
stat_test_until(fn() => $redis->pending('stat:samples', 'g-term') === $entries);
$a->signal(SIGTERM);
printf("SIGTERM: exit %s, daily all = the recording's fold: %s, pending: %d\n", var_export($a->wait(), true),
    fleet_folded("$dir/term/daily/*.all.folded*") === $expected ? 'yes' : 'no', $redis->pending('stat:samples', 'g-term'));
?>
--EXPECT--
shipped: exit 0, entries: yes
committed: killed: exit 9, journal left: yes, pending: all
committed: again: exit 0, statq: aggregate: finishing the write a previous run committed (DIR/committed/.journal)
statq: aggregate: 0 entries, 0 samples (weighted 0) written to DIR/committed
committed: daily all = the recording's fold: yes, hourly too: yes, pending: 0, journal: gone
renamed: killed: exit 9, journal left: yes, pending: all
renamed: again: exit 0, statq: aggregate: finishing the write a previous run committed (DIR/renamed/.journal)
statq: aggregate: 0 entries, 0 samples (weighted 0) written to DIR/renamed
renamed: daily all = the recording's fold: yes, hourly too: yes, pending: 0, journal: gone
read, not written: yes
killed: pending: all, written: nothing
consumer b: exit 0, took them over: yes
kill: daily all = the recording's fold: yes, pending: 0
read, not written: yes
killed: pending: all, written: nothing
consumer b: exit 0, took them over: yes
xclaim: daily all = the recording's fold: yes, pending: 0
SIGTERM: exit 0, daily all = the recording's fold: yes, pending: 0
