--TEST--
stream: a PHP that may not connect to a live socket at its stat.stream path (another user's, mode 0600) does not take it for stale: its startup warning says it cannot tell whether the socket is in use, and the owner's socket stays where it was, serving
--SKIPIF--
<?php
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root: it runs a PHP as another user');
foreach (['useradd', 'runuser'] as $tool) {
    if (!is_executable("/usr/sbin/$tool") && !is_executable("/sbin/$tool") && !is_executable("/usr/bin/$tool")) die("skip no $tool");
}
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

exec("id statout >/dev/null 2>&1 || useradd -M -N -s /usr/sbin/nologin statout");
$dir = stat_test_dir();
/* a directory the other user may write to: it could remove the socket file */
chmod($dir, 0777);
$path = "$dir/s.sock";
$owner = new StatChild(['stat.stream' => "unix://$path"], "<?php\necho \"ready\\n\";\nfgets(STDIN);\n");
var_dump($owner->waitFor("ready\n"));
clearstatcache();
$inode = fileinode($path);
printf("mode: %04o\n", fileperms($path) & 0777);

/* the same path, from a PHP run as statout: connect() gets EACCES */
$script = "$dir/other.php";
file_put_contents($script, '<?php echo json_encode(stat\settings()["stream"]), "\n";');
chmod($script, 0644);
$command = array_merge(['runuser', '-u', 'statout', '--'], stat_test_command(['stat.stream' => "unix://$path"], [$script]));
$process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
printf("other exit: %d\n", proc_close($process));
printf("other's stream: %s\n", trim($out));
printf("other's warning says why: %s\n", str_contains($err, 'cannot tell whether it is in use') ? 'yes' : json_encode($err));

clearstatcache();
printf("the owner's socket is still there: %s\n", @fileinode($path) === $inode ? 'yes' : 'no');
$client = @stream_socket_client("unix://$path", $errno, $errstr, 5);
$status = $client ? json_decode((string) fgets($client), true) : null;
printf("it serves: %s\n", ($status['type'] ?? '') === 'status' ? 'yes' : "no ($errstr)");
$owner->send("\n");
var_dump($owner->wait());
?>
--EXPECT--
bool(true)
mode: 0600
other exit: 0
other's stream: ""
other's warning says why: yes
the owner's socket is still there: yes
it serves: yes
int(0)
