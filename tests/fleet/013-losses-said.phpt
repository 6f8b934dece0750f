--TEST--
fleet: what aggregate's group never read is counted and said: entries trimmed by ship's --maxlen before the group read them (aggregate --once after the fact, and a running aggregate stopped while ship ships), exactly as many as Redis added and the group did not get; a Redis restarted empty (the group made again); each said on stderr, in the last word, in losses.log and on index.html, with exit 3 for --once, and said once (a restart says only what is new)
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['redis-server'])) die("skip $reason");
$v = (string) shell_exec('redis-server --version'); if (preg_match('/v=(\d+)/', $v, $m) && (int) $m[1] < 7) die('skip Redis before 7 counts no lag'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
$redis = new FleetRedis();
$file = statq_record_script(statq_hot_script(1500), ['stat.interval' => '200', 'stat.stack' => '16']);
$aggregate = fn(string $stream, array $more = []) => array_merge(['aggregate', '--redis', $redis->url(),
    '--stream', $stream, '--group', 'g', '--dir', "$dir/$stream"], $more);
$ship = fn(string $stream, array $more = []) => statq_run(array_merge(['ship', '-f', $file, '--redis', $redis->url(),
    '--stream', $stream, '--batch', '20'], $more));
/* the truth: what Redis added to the stream */
$added = function (string $stream) use ($redis): int {
    $info = $redis->cmd(['XINFO', 'STREAM', $stream]);
    for ($i = 0; $i + 1 < count($info); $i += 2) {
        if ($info[$i] === 'entries-added') {
            return (int) $info[$i + 1];
        }
    }
    return -1;
};
$said = fn(string $err): int => preg_match('/: (\d+) entries of \S+ were trimmed \(ship\'s --maxlen\) before the group g read them/', $err, $m) ? (int) $m[1] : 0;
$read = fn(string $err): int => preg_match('/aggregate: (\d+) entries, /', $err, $m) ? (int) $m[1] : -1;
$last = fn(string $err): int => preg_match('/(\d+) entries trimmed before they were read/', $err, $m) ? (int) $m[1] : -1;
$shown = fn(string $stream): string => (file_exists("$dir/$stream/losses.log") ? 'losses.log' : '-') . ', '
    . (str_contains((string) @file_get_contents("$dir/$stream/index.html"), 'were trimmed') ? 'index.html' : '-');

/* 1. after the fact: the group reads a first shipment, ship trims the next to 10 entries, then aggregate --once */
statq_run(['ship', '-f', __DIR__ . '/../client/fixtures/shop.jsonl', '--redis', $redis->url(), '--stream', 'after', '--batch', '50']);
[, , $err] = statq_run($aggregate('after', ['--once']));
$first = $read($err);
$ship('after', ['--maxlen', '10']);
[$code, , $err] = statq_run($aggregate('after', ['--once']));
$unread = $added('after') - $first - $read($err);
printf("after the fact: exit %d, said: %s, the last word: %s, shown in: %s\n", $code,
    $said($err) === $unread && $unread > 0 ? 'added - read' : $said($err) . " for $unread",
    $last($err) === $said($err) ? 'the same' : $last($err), $shown('after'));
[$code, , $err] = statq_run($aggregate('after', ['--once']));
printf("again: exit %d, said: %d\n", $code, $said($err));

/* 2. a running aggregate, stopped (SIGSTOP) while ship ships through a MAXLEN of 10, then let go */
$a = new Statq($aggregate('running', ['--flush', '1']));
stat_test_until(fn() => $redis->pending('running', 'g') === 0 && count($redis->entries('running')) === 0 && is_dir("$dir/running/daily"));
$a->signal(SIGSTOP);
$ship('running', ['--maxlen', '10']);
$a->signal(SIGCONT);
$total = $added('running');
/* said, and every entry still in the stream delivered to the group (it reads a few at a time while it learns their size) */
$delivered = function (string $stream) use ($redis): bool {
    $info = $redis->cmd(['XINFO', 'STREAM', $stream]);
    $groups = $redis->cmd(['XINFO', 'GROUPS', $stream]);
    $last = $info[array_search('last-generated-id', $info, true) + 1] ?? null;
    foreach ($groups as $group) {
        if ($group[array_search('name', $group, true) + 1] === 'g') {
            return $last !== null && $group[array_search('last-delivered-id', $group, true) + 1] === $last;
        }
    }
    return false;
};
$ok = stat_test_until(function () use ($a, $said, $delivered) {
    $alive = $a->running();  /* (reads what it printed) */
    return ($said($a->stderr()) > 0 && $delivered('running')) || !$alive;
});
$a->signal(SIGTERM);
$a->wait();
printf("running: said while it runs: %s, said = added - read: %s, exit %d\n", $ok ? 'yes' : 'no',
    $said($a->stderr()) === $total - $read($a->stderr()) ? 'yes' : $said($a->stderr()) . " of $total - " . $read($a->stderr()), $a->wait());

/* 3. Redis restarted without its data (persistence off): the group was made again */
$redis->kill();
$redis->start();
$ship('after');
[$code, , $err] = statq_run($aggregate('after', ['--once']));
printf("restarted empty: exit %d, said: %s, in losses.log: %s, written: %s\n", $code,
    str_contains($err, 'the group g of after was made again') ? 'yes' : "no\n$err",
    substr_count((string) file_get_contents("$dir/after/losses.log"), 'made again'), $read($err) === $added('after') ? 'all the new entries' : 'no');
?>
--EXPECT--
after the fact: exit 3, said: added - read, the last word: the same, shown in: losses.log, index.html
again: exit 0, said: 0
running: said while it runs: yes, said = added - read: yes, exit 0
restarted empty: exit 3, said: yes, in losses.log: 1, written: all the new entries
