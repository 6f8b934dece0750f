--TEST--
settings: stat.socket_group gives the unix sockets a group; the stream (stat.socket_mode) and the control socket (stat.control_mode, default 0600) have their own modes: a real user in the group reads samples but cannot change sampling, a user outside it can do neither; an unknown group is one warning and no socket
--SKIPIF--
<?php
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
require __DIR__ . '/settings.inc';

/* a real group and two real users: one in it, one not */
$group = 'statreaders';
exec("getent group $group >/dev/null || groupadd $group");
exec("id statin >/dev/null 2>&1 || useradd -M -N -s /usr/sbin/nologin -G $group statin");
exec("id statout >/dev/null 2>&1 || useradd -M -N -s /usr/sbin/nologin statout");
exec("id -nG statin", $in);
printf("statin in %s: %s\n", $group, in_array($group, explode(' ', $in[0] ?? ''), true) ? 'yes' : 'no');

$dir = stat_test_dir();
chmod($dir, 0711);
$child = new StatChild(['stat.stream' => "$dir/stream.sock", 'stat.control' => "$dir/control.sock",
    'stat.socket_group' => $group, 'stat.socket_mode' => '0660', 'stat.interval' => '1000'], <<<'PHP'
<?php
echo "ready\n";
fgets(STDIN);
PHP);
var_dump($child->waitFor("ready\n"));
clearstatcache();
foreach (['stream', 'control'] as $name) {
    $path = "$dir/$name.sock";
    printf("%s: %s %04o group %s\n", $name, filetype($path), fileperms($path) & 07777, trim((string) shell_exec('stat -c %G ' . escapeshellarg($path))));
}

/* each user tries both sockets: connect, and for the stream read the first line */
$probe = "$dir/probe.php";
file_put_contents($probe, <<<'PHP'
<?php
foreach (['stream', 'control'] as $name) {
    $s = @stream_socket_client("unix://{$argv[1]}/$name.sock", $errno, $errstr, 5);
    if (!$s) {
        echo "$name: refused ($errstr)\n";
        continue;
    }
    if ($name === 'stream') {
        stream_set_timeout($s, 10);
        $line = json_decode((string) fgets($s), true);
        echo "$name: read a ", $line['type'] ?? 'nothing', " line\n";
    } else {
        echo "$name: connected\n";
    }
}
PHP);
chmod($probe, 0644);
foreach (['statin', 'statout'] as $user) {
    $out = [];
    exec('runuser -u ' . $user . ' -- ' . escapeshellarg(getenv('TEST_PHP_EXECUTABLE')) . ' -n ' . escapeshellarg($probe) . ' ' . escapeshellarg($dir) . ' 2>&1', $out);
    foreach ($out as $line) {
        echo "$user: $line\n";
    }
}
$child->send("end\n");
var_dump($child->wait());

/* an unknown group: one warning naming it, and no unix socket rather than one with the wrong group */
[$code, $stdout, $warnings] = stat_settings_child(['stat.stream' => "$dir/nogroup.sock", 'stat.socket_group' => 'no-such-group-xyz']);
printf("unknown group: exit %d, warnings %d, names it: %s, socket made: %s\n", $code, count($warnings),
    str_contains($warnings[0] ?? '', "stat.socket_group: there is no group 'no-such-group-xyz'") ? 'yes' : 'no', file_exists("$dir/nogroup.sock") ? 'yes' : 'no');
/* a numeric gid works too */
$gid = (int) trim((string) shell_exec("getent group $group | cut -d: -f3"));
[$code, $stdout, $warnings] = stat_settings_child(['stat.stream' => "$dir/gid.sock", 'stat.socket_group' => (string) $gid],
    "<?php clearstatcache(); echo filegroup('$dir/gid.sock') === $gid ? 'statreaders' : 'other', ' ', decoct(fileperms('$dir/gid.sock') & 0777), \"\\n\";");
printf("by gid: exit %d, warnings %d, %s", $code, count($warnings), $stdout);
?>
--EXPECT--
statin in statreaders: yes
bool(true)
stream: socket 0660 group statreaders
control: socket 0600 group statreaders
statin: stream: read a status line
statin: control: refused (Permission denied)
statout: stream: refused (Permission denied)
statout: control: refused (Permission denied)
int(0)
unknown group: exit 0, warnings 1, names it: yes, socket made: no
by gid: exit 0, warnings 0, statreaders 600
