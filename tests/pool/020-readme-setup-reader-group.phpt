--TEST--
pool: the README's php-fpm setup (only zend_extension, the socket settings and the sampler and interval it takes, sockets in a 0750 root:group directory) gives a real member of the readers' group stacks: status, top with self below total, fold and a flame graph by path under load; ctl is root's only, and a change above the startup maximum is refused with the reason; a recording started after the load leaves the ring's backlog out; a user outside the group is refused on both sockets with the hint
--SKIPIF--
<?php
require __DIR__ . '/pool.inc'; require __DIR__ . '/../client/client.inc';
if ($why = stat_pool_skip(['fpm', 'nginx'])) die("skip $why");
if ($reason = statq_skip_reason()) die("skip $reason");
if (stat_pool_uid() !== 0) die('skip needs root: it makes users and a group, and runs php-fpm as root as Debian does');
foreach (['useradd', 'groupadd', 'runuser'] as $tool) {
    if (!is_executable("/usr/sbin/$tool") && !is_executable("/sbin/$tool") && !is_executable("/usr/bin/$tool")) die("skip no $tool");
}
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
require __DIR__ . '/../client/client.inc';

$group = 'statreaders';
exec("getent group $group >/dev/null || groupadd $group");
exec("id statin >/dev/null 2>&1 || useradd -M -N -s /usr/sbin/nologin -G $group statin");
exec("id statout >/dev/null 2>&1 || useradd -M -N -s /usr/sbin/nologin statout");

$dir = stat_pool_dir();
chmod($dir, 0711);
/* the sockets' directory as the README's tmpfiles.d line makes it: d /run/stat 0750 root GROUP */
$run = "$dir/run";
mkdir($run, 0750);
chgrp($run, $group);
copy(statq_binary(), "$dir/statq");
/* where the readers write their flame graph */
mkdir("$dir/out", 0777);
chmod("$dir/out", 0777);
chmod("$dir/statq", 0755);

/* the README's settings, and nothing else stat-related (stat.stack is left at its default) */
$pool = new StatPool(['pm' => 'static', 'pm.max_children' => '3'], [
    'stat.stream' => "unix://$run/stat.stream",
    'stat.control' => "unix://$run/stat.control",
    'stat.socket_group' => $group,
    'stat.socket_mode' => '0660',
    'stat.control_mode' => '0600',
    'stat.sampler' => 'pool',
    'stat.interval' => '10000',
    'stat.samples' => '65536',
]);
$pool->script('shop.php', <<<'PHP'
<?php
function model(): string { $x = ''; for ($i = 0; $i < 3000; $i++) { $x = md5($x); } return $x; }
function controller(): string { return model(); }
function route(): string { return controller(); }
echo route();
PHP);
var_dump($pool->ready());
$modes = [];
foreach (['stat.stream', 'stat.control'] as $name) {
    $modes[] = "$name " . trim((string) shell_exec('stat -c %a\ %U:%G ' . escapeshellarg("$run/$name")));
}
echo implode("\n", $modes), "\n";

/* statq as a user: started now, collected later (the load runs meanwhile) */
function as_user(string $user, array $args): array
{
    $command = array_merge(['runuser', '-u', $user, '--', $GLOBALS['dir'] . '/statq'], $args);
    /* statq is not PHP: no sanitizer runtime preloaded (statq is not built with it) */
    $env = getenv();
    unset($env['LD_PRELOAD']);
    $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $GLOBALS['dir'] . "/$user-" . $args[0] . '.out', 'w'],
        2 => ['file', $GLOBALS['dir'] . "/$user-" . $args[0] . '.err', 'w']], $pipes, null, $env);
    return [$process, $args[0], $user, null];
}
/* the exit code, once: proc_get_status() reports it only the first time it sees the process ended */
function finished(array &$started): bool
{
    if ($started[3] === null) {
        $status = proc_get_status($started[0]);
        if ($status['running']) {
            return false;
        }
        $started[3] = $status['exitcode'];
    }
    return true;
}
function collect(array $started): array
{
    [$process, $command, $user, $code] = $started;
    $closed = proc_close($process);
    $code ??= $closed;
    return [$code, (string) file_get_contents($GLOBALS['dir'] . "/$user-$command.out"),
        str_replace($GLOBALS['dir'], 'DIR', (string) file_get_contents($GLOBALS['dir'] . "/$user-$command.err"))];
}

[$code, $out, $err] = collect(as_user('statin', ['status', '-s', $run]));
printf("statin status: exit %d, %s\n", $code, str_contains($out, 'stat 1.0.0 at') && preg_match('/^  stack +64 frames/m', $out) ? 'shows the pool, stack 64' : $out . $err);

$readers = [
    as_user('statin', ['top', '--once', '--seconds', '4', '-s', "$run/stat.stream"]),
    as_user('statin', ['fold', '--seconds', '4', '--group', 'path', '-s', "unix://$run/stat.stream"]),
    as_user('statin', ['flame', '--seconds', '4', '--group', 'path', '-s', $run, '-o', "$dir/out/pool.html"]),
];
/* load while they read: requests until every reader is done (at most 30 s) */
$deadline = microtime(true) + 30;
$served = 0;
do {
    foreach (stat_pool_http($pool->port, array_fill(0, 6, ['GET', '/shop.php?user=' . random_int(1, 1000)]), 3) as [$status]) {
        $served += $status === 200 ? 1 : 0;
    }
    $running = 0;
    foreach ($readers as &$reader) {
        $running += finished($reader) ? 0 : 1;
    }
    unset($reader);
} while ($running && microtime(true) < $deadline);
printf("requests served: %s\n", $served > 0 ? 'yes' : 'no');

[$code, $out, $err] = collect($readers[0]);
$row = fn(string $f) => preg_match('/^\s+(\d+)\s+[\d.]+%\s+(\d+)\s+[\d.]+%\s+' . preg_quote($f, '/') . '$/m', $out, $m) ? [(int) $m[1], (int) $m[2]] : null;
$route = $row('route');
$md5 = $row('md5');
printf("top: exit %d, route's self below its total: %s, md5 counted: %s\n", $code, $route && $route[0] < $route[1] ? 'yes' : 'no',
    $md5 && $md5[1] > 0 ? 'yes' : 'no: ' . $out . $err);

[$code, $out, $err] = collect($readers[1]);
$stacks = $code === 0 ? statq_parse_folded($out) : [];
$whole = 0;
foreach ($stacks as $stack => $count) {
    if (preg_match('/^path \/shop\.php;<shop\.php>;route;controller;model(;md5)?$/', $stack)) {
        $whole += $count;
    }
}
printf("fold: exit %d, whole stacks under /shop.php: %s\n", $code, $whole > 0 ? 'yes' : 'no: ' . substr($out, 0, 2000) . $err);

[$code, $out, $err] = collect($readers[2]);
$html = (string) @file_get_contents("$dir/out/pool.html");
printf("flame: exit %d, a page with the stack: %s\n", $code, str_contains($html, '<html') && str_contains($html, 'controller') && str_contains($html, '/shop.php') ? 'yes' : 'no: ' . $err);

/* sampling is root's to change */
[$code, $out, $err] = collect(as_user('statin', ['ctl', '-c', "$run/stat.control", 'interval', '200']));
printf("statin ctl: exit %d\n%s", $code, $err);
[$code, $out, $err] = statq_run(['ctl', '-c', "$run/stat.control", 'interval', '2000']);
printf("root ctl: exit %d, %s", $code, $out);
foreach ([['status', '-s', "$run/stat.stream"], ['ctl', '-c', "$run/stat.control", 'interval', '200']] as $args) {
    [$code, $out, $err] = collect(as_user('statout', $args));
    printf("statout %s: exit %d\n%s", $args[0], $code, $err);
}
/* a change the pool cannot make is an error saying why, never "sent" */
[$code, $out, $err] = statq_run(['ctl', '-c', "$run/stat.control", 'stack', '128']);
printf("root ctl stack 128: exit %d\n%s", $code, str_replace($dir, 'DIR', $err));

/* the ring now holds the load above: a recording started now has only what is sampled from then on, and says what it left out */
$record = as_user('statin', ['record', '--seconds', '3', '-s', $run, '-o', "$dir/out/after.jsonl"]);
$deadline = microtime(true) + 30;
do {
    stat_pool_http($pool->port, array_fill(0, 6, ['GET', '/shop.php?after=' . random_int(1, 1000)]), 3);
} while (!finished($record) && microtime(true) < $deadline);
[$code, $out, $err] = collect($record);
$lines = file("$dir/out/after.jsonl", FILE_IGNORE_NEW_LINES) ?: ['{}'];
$status = json_decode($lines[0], true);
[$after] = stat_test_decode(implode("\n", $lines) . "\n");
printf("record after the load: exit %d, the backlog left out and said: %s, samples from then on only: %s\n", $code,
    preg_match('/left out ([1-9]\d*) samples/', $err) ? 'yes' : "no: $err",
    ($status['type'] ?? '') === 'status' && count($after) > 0 && !array_filter($after, fn($x) => $x['time'] < $status['time']) ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
stat.stream 660 root:statreaders
stat.control 600 root:statreaders
statin status: exit 0, shows the pool, stack 64
requests served: yes
top: exit 0, route's self below its total: yes, md5 counted: yes
fold: exit 0, whole stacks under /shop.php: yes
flame: exit 0, a page with the stack: yes
statin ctl: exit 1
statq: ctl: cannot connect to unix://DIR/run/stat.control: Permission denied (connecting needs write permission on the socket and search permission on its directories: see stat.socket_group, stat.socket_mode and stat.control_mode)
root ctl: exit 0, applied interval 2000
statout status: exit 1
statq: status: cannot connect to unix://DIR/run/stat.stream: Permission denied (connecting needs write permission on the socket and search permission on its directories: see stat.socket_group, stat.socket_mode and stat.control_mode)
statout ctl: exit 1
statq: ctl: cannot connect to unix://DIR/run/stat.control: Permission denied (connecting needs write permission on the socket and search permission on its directories: see stat.socket_group, stat.socket_mode and stat.control_mode)
root ctl stack 128: exit 1
statq: ctl: unix://DIR/run/stat.control refused stack 128: above the startup maximum 64: raise stat.stack in php.ini and restart PHP
record after the load: exit 0, the backlog left out and said: yes, samples from then on only: yes
