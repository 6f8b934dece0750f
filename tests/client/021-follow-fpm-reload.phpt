--TEST--
client: with a real php-fpm pool behind nginx, record --follow keeps recording across a graceful reload (said on stderr, the new listener's samples follow, nothing twice); status shows the new listener; --group path folds the requests' query strings away
--SKIPIF--
<?php require __DIR__ . '/../pool/pool.inc'; require __DIR__ . '/client.inc';
if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why"); if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../pool/pool.inc';
require __DIR__ . '/client.inc';

statq_binary();
$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '2']);
$pool->script('work.php', stat_pool_busy(0.2, 'echo getmypid();'));
var_dump($pool->ready());
$dir = $pool->dir;

/* the URIs the recording holds so far (its temporary file grows while recording) */
function recorded(string $dir, string $uri): bool
{
    foreach (glob("$dir/.pool.jsonl.*") as $temp) {
        if (strpos((string) file_get_contents($temp), '"uri":"' . $uri . '"') !== false) {
            return true;
        }
    }
    return false;
}
function requests(StatPool $pool, string $dir, string $tag): bool
{
    $uris = ["/work.php?$tag=1", "/work.php?$tag=2"];
    $deadline = microtime(true) + STAT_TEST_TIMEOUT;
    do {
        stat_pool_http($pool->port, [['GET', $uris[0]], ['GET', $uris[1]]], 2);
        $seen = stat_pool_until(fn() => recorded($dir, $uris[0]) || recorded($dir, $uris[1]), 2.0);
    } while (!$seen && microtime(true) < $deadline);
    return (bool) $seen;
}

[$code, $out] = statq_run(['status', '-s', $pool->stream, '--json']);
$before = json_decode($out, true)['listener']['pid'] ?? null;
$record = new Statq(['record', '--follow', '-s', $pool->stream, '-o', "$dir/pool.jsonl"]);
/* requests only once record is connected (status itself is the other client) */
printf("record connected: %s\n", stat_pool_until(fn() => (json_decode(statq_run(['status', '-s', $pool->stream, '--json'])[1], true)['counters']['clients_connected'] ?? 0) >= 2, 10.0) ? 'yes' : 'no');
printf("recorded before the reload: %s\n", requests($pool, $dir, 'before') ? 'yes' : 'no');

$workers = $pool->workers();
stat_pool_kill($pool->masterPid(), SIGUSR2);
$after = stat_pool_until(function () use ($pool, $workers) {
    $now = $pool->workers();
    return count($now) === 2 && array_intersect($now, $workers) === [] ? $now : null;
}, 15.0);
printf("new workers: %s\n", $after ? 'yes' : 'no');
printf("record reconnected: %s\n", stat_pool_until(fn() => $record->running() && str_contains($record->stderr(), 'reconnected'), 20.0) ? 'yes' : 'no');
printf("recorded after the reload: %s\n", requests($pool, $dir, 'after') ? 'yes' : 'no');
$record->signal(SIGINT);
printf("record: exit %s\n%s", var_export($record->wait(10), true),
    preg_replace(['/after [\d.]+ s/', '/^statq: record: left out \d+ samples.*\n/m'], ['after N s', ''], str_replace($pool->stream, 'STREAM', $record->stderr())));

[$code, $out] = statq_run(['status', '-s', $pool->stream, '--json']);
$now = json_decode($out, true)['listener']['pid'] ?? null;
printf("status: a new listener: %s\n", $before && $now && $before !== $now ? 'yes' : "no ($before, $now)");

[$samples] = stat_test_decode(file_get_contents("$dir/pool.jsonl"));
$keys = array_map(fn($s) => json_encode([$s['request']['pid'], $s['elapsed'], $s['time']]), $samples);
printf("no sample twice: %s\n", count(array_unique($keys)) === count($keys) ? 'yes' : 'no');

$roots = function (string $group) use ($dir): array {
    [$code, $out] = statq_run(['fold', '--group', $group, '-f', "$dir/pool.jsonl"]);
    $roots = array_unique(array_map(fn($stack) => explode(';', $stack)[0], array_keys(statq_parse_folded($out))));
    sort($roots);
    return $roots;
};
printf("--group uri: %d roots; --group path: %s; --group script: %s\n", count($roots('uri')), implode(' ', $roots('path')),
    str_replace($pool->docroot, 'DOCROOT', implode(' ', $roots('script'))));
?>
--EXPECT--
bool(true)
record connected: yes
recorded before the reload: yes
new workers: yes
record reconnected: yes
recorded after the reload: yes
record: exit 0
statq: record: the stream from unix://STREAM ended (PHP reloaded or restarted?); reconnecting, for up to 30 s
statq: record: reconnected to unix://STREAM after N s
status: a new listener: yes
no sample twice: yes
--group uri: 4 roots; --group path: path /work.php; --group script: script DOCROOT/work.php
