--TEST--
fleet: pprof, ship and aggregate in --help; missing or wrong options, an unreachable Redis and a stream nobody shipped to are clear errors that name the fix (a running aggregate says once that it waits for the stream)
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['redis-server'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
[$code, $out] = statq_run(['--help']);
printf("--help lists them: %s\n", preg_match_all('/^  (pprof|ship|aggregate) /m', $out) === 3 ? 'yes' : 'no');
foreach (['pprof' => ['--output', '--idle', 'samples/count'], 'ship' => ['--redis', '--stream', '--maxlen', '--host', '--pool', '--batch', '--buffer', '--plain', '--gzip', '--jsonl', '--follow', 'type=dropped'],
    'aggregate' => ['--redis', '--stream', '--group', '--consumer', '--dir', '--once', '--retain-hours', '--retain-days', '--claim-idle', '--flush']] as $command => $words) {
    [$code, $out] = statq_run([$command, '--help']);
    $missing = array_filter($words, fn($w) => !str_contains($out, $w));
    printf("%s --help: exit %d, missing: %s\n", $command, $code, $missing ? implode(',', $missing) : 'none');
}
$show = fn(array $r): string => sprintf("exit %d: %s", $r[0], trim(str_replace($dir, 'DIR', $r[2])));
echo $show(statq_run(['ship', '-f', __DIR__ . '/../client/fixtures/shop.jsonl'])), "\n";
echo $show(statq_run(['ship', '-f', __DIR__ . '/../client/fixtures/shop.jsonl', '--redis', 'http://x', '--stream', 's'])), "\n";
echo $show(statq_run(['ship', '-f', __DIR__ . '/../client/fixtures/shop.jsonl', '--redis', 'redis://localhost:99999', '--stream', 's'])), "\n";
echo $show(statq_run(['ship', '-f', __DIR__ . '/../client/fixtures/shop.jsonl', '--redis', "unix://$dir/none.sock", '--stream', 's', '--plain', '--gzip'])), "\n";
echo $show(statq_run(['aggregate', '--redis', "unix://$dir/none.sock", '--stream', 's'])), "\n";
echo $show(statq_run(['aggregate', '--redis', "unix://$dir/none.sock", '--stream', 's', '--group', 'g', '--dir', "$dir/out", '--once'])), "\n";
/* a Redis that never answers: everything read is dropped and counted, ship fails */
echo $show(statq_run(['ship', '-f', __DIR__ . '/../client/fixtures/shop.jsonl', '--redis', "unix://$dir/none.sock", '--stream', 's'])), "\n";
/* two aggregators on one directory */
$redis = new FleetRedis();
$a = new Statq(['aggregate', '--redis', $redis->url(), '--stream', 's', '--group', 'g', '--dir', "$dir/one"]);
stat_test_until(fn() => file_exists("$dir/one/index.html"));
echo $show(statq_run(['aggregate', '--redis', $redis->url(), '--stream', 's', '--group', 'g', '--dir', "$dir/one", '--once'])), "\n";
$a->signal(SIGTERM);
printf("the first one, SIGTERM: exit %d\n", $a->wait());
printf("it said, once, that the stream is not there yet: %d\n", substr_count($a->stderr(), 'has no stream s yet: waiting for entries'));
/* a misspelt stream: an error for --once, and not made */
echo $show(statq_run(['aggregate', '--redis', $redis->url(), '--stream', 'stat:smaples', '--group', 'g', '--dir', "$dir/typo", '--once'])), "\n";
printf("stat:smaples made: %s\n", $redis->cmd(['EXISTS', 'stat:smaples']) ? 'yes' : 'no');
?>
--EXPECT--
--help lists them: yes
pprof --help: exit 0, missing: none
ship --help: exit 0, missing: none
aggregate --help: exit 0, missing: none
exit 2: statq: ship: give the Redis server and the stream: --redis redis://host:port --stream KEY (see statq ship --help)
exit 2: statq: ship: --redis http://x: expected redis://host:port or unix:///path/to/redis.sock
exit 2: statq: ship: --redis redis://localhost:99999: the port must be 1 to 65535
exit 2: statq: ship: --plain writes entries uncompressed, --gzip compressed: give one of them
exit 2: statq: aggregate: give --redis ADDRESS --stream KEY --group NAME --dir DIR (see statq aggregate --help)
exit 1: statq: aggregate: cannot connect to unix://DIR/none.sock: No such file or directory
exit 1: statq: ship: cannot connect to unix://DIR/none.sock: No such file or directory; keeping up to 64 MiB of samples and reconnecting
statq: ship: dropping samples: Redis did not take them before the end (counted; reported at the end and as a "dropped" entry in s)
statq: ship: 393 samples read, 0 shipped in 0 entries to unix://DIR/none.sock (stream s), 393 dropped
exit 1: statq: aggregate: DIR/one/.lock: another statq aggregate is writing to this directory
the first one, SIGTERM: exit 0
it said, once, that the stream is not there yet: 1
exit 1: statq: aggregate: unix://DIR/redis.sock has no stream stat:smaples: nothing was shipped to it (is it the --stream ship writes to?)
stat:smaples made: no
