--TEST--
fleet: Redis as operators run it: a password (redis://:pw@host), an ACL user (redis://user:pw@host), the database number (/3) honoured by ship and aggregate, a unix socket with ?password= and ?db=, STATQ_REDIS_PASSWORD and STATQ_REDIS_USER from the environment; no password, a wrong one or a wrong user is one clear error (exit 1) that never shows the password, and with --follow is said once, not once per retry; rediss:// without TLS in statq, and a database that is not a number, are errors naming the fix
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['redis-server'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
$redis = new FleetRedis(null, ['tcp' => true, 'auth' => ['secret'],
    'args' => ['--requirepass', 'secret', '--user', 'alice', 'on', '>wonder', '~*', '&*', '+@all']]);
$file = statq_record_script(statq_hot_script(400), ['stat.interval' => '200', 'stat.stack' => '16']);
[, $folded] = statq_run(['fold', '-f', $file]);
$expected = statq_parse_folded($folded);
$tcp = "127.0.0.1:{$redis->port}";
$show = fn(string $text): string => trim(str_replace([$dir, (string) $redis->port], ['DIR', 'PORT'], $text));
$ship = fn(string $url, array $more = []) => statq_run(array_merge(['ship', '-f', $file, '--redis', $url, '--stream', 's', '--batch', '50'], $more));
$lines = fn(string $text, string $word): int => count(array_filter(explode("\n", $text), fn($l) => str_contains($l, $word)));

/* refused: no password, a wrong one, a wrong user; each said on one line (the server's reply), the password never shown */
foreach (["redis://$tcp", "redis://:nope@$tcp", "redis://bob:nope@$tcp/3"] as $url) {
    $started = microtime(true);
    [$code, , $err] = $ship($url);
    $first = strtok($err, "\n");
    printf("ship %s: exit %d, %s, lines naming it: %d, password shown: %s\n", $show(preg_replace('/nope/', '***', $url)), $code,
        $show($first), $lines($err, 'WRONGPASS') + $lines($err, 'NOAUTH'), str_contains($err, 'nope') ? 'yes' : 'no');
}
[$code, , $err] = statq_run(['aggregate', '--redis', "redis://alice:nope@$tcp", '--stream', 's', '--group', 'g', '--dir', "$dir/x", '--once']);
printf("aggregate with a wrong password: exit %d, %s, password shown: %s\n", $code, $show(strtok($err, "\n")), str_contains($err, 'nope') ? 'yes' : 'no');

/* --follow: said once while it retries (5 s), not once per retry */
/* (its PHP away too: it keeps trying both) */
$follow = new Statq(['ship', '-s', "$dir/none.sock", '--redis', "redis://:nope@$tcp", '--stream', 's', '--follow']);
usleep(5000000);
$follow->signal(SIGTERM);
$follow->wait();
printf("ship --follow with a wrong password for 5 s: lines saying it was refused: %d\n", $lines($follow->stderr(), 'WRONGPASS'));

/* the password, a database */
[$code, , $err] = $ship("redis://:secret@$tcp/3");
printf("ship redis://:***@%s/3: exit %d, entries in db 3: %s, in db 0: %d\n", $show($tcp), $code,
    count($redis->entries('s', 3)) > 0 ? 'yes' : 'no', count($redis->entries('s', 0)));
/* an ACL user, the same database */
[$code, , $err] = statq_run(['aggregate', '--redis', "redis://alice:wonder@$tcp/3", '--stream', 's', '--group', 'g', '--dir', "$dir/acl", '--once']);
printf("aggregate redis://alice:***@%s/3: exit %d, daily all = the recording: %s, pending: %d\n", $show($tcp), $code,
    fleet_folded("$dir/acl/daily/*.all.folded*") === $expected ? 'yes' : 'no', $redis->pending('s', 'g', 3));
/* the default user named, a unix socket with ?password= and ?db= */
[$code, , $err] = $ship("redis://default:secret@$tcp/5");
printf("ship redis://default:***@.../5: exit %d, entries in db 5: %s\n", $code, count($redis->entries('s', 5)) > 0 ? 'yes' : "no\n$err");
[$code, , $err] = $ship("unix://{$redis->socket}?password=secret&db=7");
printf("ship unix://...?password=***&db=7: exit %d, entries in db 7: %s, password shown: %s\n", $code,
    count($redis->entries('s', 7)) > 0 ? 'yes' : "no\n$err", str_contains($err, 'secret') ? 'yes' : 'no');

/* the password and user from the environment (not in the process list) */
putenv('STATQ_REDIS_PASSWORD=wonder');
putenv('STATQ_REDIS_USER=alice');
[$code, , $err] = $ship("redis://$tcp/9");
putenv('STATQ_REDIS_PASSWORD');
putenv('STATQ_REDIS_USER');
printf("ship with STATQ_REDIS_USER and STATQ_REDIS_PASSWORD: exit %d, entries in db 9: %s\n", $code, count($redis->entries('s', 9)) > 0 ? 'yes' : "no\n$err");

/* usage errors */
/* rediss://: where statq has TLS (fleet/014), a CA file that is not there is refused; where it has not, it says so */
[$code, , $err] = $ship("rediss://:secret@$tcp?ca=$dir/none.crt");
$tls = str_contains(statq_run(['--version'])[1], 'hiredis, TLS');
printf("rediss:// with a CA file that is not there: refused: %s, said clearly: %s, password shown: %s\n", $code !== 0 ? 'yes' : 'no',
    str_contains($err, $tls ? 'TLS for rediss://:***@' : 'this statq was built without TLS: rediss:// needs hiredis with TLS') ? 'yes' : $err,
    str_contains($err, 'secret') ? 'yes' : 'no');
foreach (["redis://$tcp/three", "redis://secret@$tcp"] as $url) {
    [$code, , $err] = $ship($url);
    printf("%s: exit %d, %s\n", $show(str_replace('secret', '***', $url)), $code, $show(strtok($err, "\n")));
}
?>
--EXPECT--
ship redis://127.0.0.1:PORT: exit 1, statq: ship: redis://127.0.0.1:PORT wants a password: give it in the address (redis://:password@host, redis://user:password@host, or unix:///path?password=...): NOAUTH Authentication required., lines naming it: 1, password shown: no
ship redis://:***@127.0.0.1:PORT: exit 1, statq: ship: redis://:***@127.0.0.1:PORT refused the password: WRONGPASS invalid username-password pair or user is disabled., lines naming it: 1, password shown: no
ship redis://bob:***@127.0.0.1:PORT/3: exit 1, statq: ship: redis://bob:***@127.0.0.1:PORT/3 refused the user and password: WRONGPASS invalid username-password pair or user is disabled., lines naming it: 1, password shown: no
aggregate with a wrong password: exit 1, statq: aggregate: redis://alice:***@127.0.0.1:PORT refused the user and password: WRONGPASS invalid username-password pair or user is disabled., password shown: no
ship --follow with a wrong password for 5 s: lines saying it was refused: 1
ship redis://:***@127.0.0.1:PORT/3: exit 0, entries in db 3: yes, in db 0: 0
aggregate redis://alice:***@127.0.0.1:PORT/3: exit 0, daily all = the recording: yes, pending: 0
ship redis://default:***@.../5: exit 0, entries in db 5: yes
ship unix://...?password=***&db=7: exit 0, entries in db 7: yes, password shown: no
ship with STATQ_REDIS_USER and STATQ_REDIS_PASSWORD: exit 0, entries in db 9: yes
rediss:// with a CA file that is not there: refused: yes, said clearly: yes, password shown: no
redis://127.0.0.1:PORT/three: exit 2, statq: ship: --redis redis://127.0.0.1:PORT/three: after the host, /N is the database number (redis://host:6379/3)
redis://***@127.0.0.1:PORT: exit 2, statq: ship: --redis redis://***@127.0.0.1:PORT: give the password after a colon: redis://:password@host or redis://user:password@host
