--TEST--
client: as a real member of the readers' group statq status and top read the pool and ctl is refused with a hint; a user outside the group gets the hint on both sockets
--SKIPIF--
<?php
require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason");
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root: it makes users and a group, and gives the sockets to that group');
foreach (['useradd', 'groupadd', 'runuser'] as $tool) {
    if (!is_executable("/usr/sbin/$tool") && !is_executable("/sbin/$tool") && !is_executable("/usr/bin/$tool")) die("skip no $tool");
}
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$group = 'statreaders';
exec("getent group $group >/dev/null || groupadd $group");
exec("id statin >/dev/null 2>&1 || useradd -M -N -s /usr/sbin/nologin -G $group statin");
exec("id statout >/dev/null 2>&1 || useradd -M -N -s /usr/sbin/nologin statout");

$dir = stat_test_dir();
chmod($dir, 0711);
/* statq where the users can run it */
copy(statq_binary(), "$dir/statq");
chmod("$dir/statq", 0755);
$child = new StatChild(['stat.stream' => "$dir/stream.sock", 'stat.control' => "$dir/control.sock", 'stat.socket_group' => $group,
    'stat.socket_mode' => '0660', 'stat.interval' => '500', 'stat.stack' => '16'], <<<'PHP'
<?php
function spin(): string { $x = ''; for ($i = 0; $i < 200; $i++) { $x = md5($x); } return $x; }
echo "ready\n";
stream_set_blocking(STDIN, false);
$deadline = microtime(true) + 30;
while (trim((string) fgets(STDIN)) !== 'bye' && microtime(true) < $deadline) {
    spin();
}
PHP);
var_dump($child->waitFor("ready\n"));

function as_user(string $user, array $args): array
{
    $command = array_merge(['runuser', '-u', $user, '--', $GLOBALS['dir'] . '/statq'], $args);
    $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    return [proc_close($process), $out, str_replace($GLOBALS['dir'], 'DIR', $err)];
}

[$code, $out, $err] = as_user('statin', ['status', '-s', "$dir/stream.sock"]);
printf("statin status: exit %d, %s\n", $code, strtok($out, "\n") !== false && str_starts_with($out, 'stat 1.0.0 at') ? 'shows the pool' : $err);
[$code, $out, $err] = as_user('statin', ['top', '--once', '--samples', '50', '-s', "$dir/stream.sock"]);
printf("statin top: exit %d, spin counted: %s\n", $code, preg_match('/^\s+\d+\s+[\d.]+%\s+\d+\s+[\d.]+%\s+(spin|md5)$/m', $out) ? 'yes' : 'no: ' . $out . $err);
[$code, $out, $err] = as_user('statin', ['ctl', '-c', "$dir/control.sock", 'interval', '200']);
printf("statin ctl: exit %d\n%s", $code, $err);
[$code, $out, $err] = as_user('statout', ['status', '-s', "$dir/stream.sock"]);
printf("statout status: exit %d\n%s", $code, $err);
$child->send("bye\n");
var_dump($child->wait());
?>
--EXPECT--
bool(true)
statin status: exit 0, shows the pool
statin top: exit 0, spin counted: yes
statin ctl: exit 1
statq: ctl: cannot connect to unix://DIR/control.sock: Permission denied (connecting needs write permission on the socket and search permission on its directories: see stat.socket_group, stat.socket_mode and stat.control_mode)
statout status: exit 1
statq: status: cannot connect to unix://DIR/stream.sock: Permission denied (connecting needs write permission on the socket and search permission on its directories: see stat.socket_group, stat.socket_mode and stat.control_mode)
int(0)
