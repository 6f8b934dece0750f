--TEST--
settings: a stream or control socket on an address other machines reach (tcp://0.0.0.0) is refused unless stat.remote=On, with a warning naming the address, what it would give away and the settings that open it; loopback addresses open as before; stat.remote=On still needs stat.secret, a regular file holding one line of 16 to 1024 bytes (a FIFO does not hold startup; one others may read is used, with a warning); with both, both sockets listen on 0.0.0.0
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$dir = stat_test_dir();
$good = "$dir/secret";
file_put_contents($good, base64_encode(random_bytes(32)) . "\n");
chmod($good, 0600);
$open = "$dir/open-secret";
file_put_contents($open, base64_encode(random_bytes(32)) . "\n");
chmod($open, 0644);
file_put_contents("$dir/short", "1234567\n");
exec("mkfifo " . escapeshellarg("$dir/fifo"));
$remote = ['stat.stream' => 'tcp://0.0.0.0:0', 'stat.control' => 'tcp://0.0.0.0:0'];

function run(string $title, array $ini): void
{
    [$code, $stdout, $warnings, $rest] = stat_settings_child($ini);
    $settings = json_decode(explode("\n", $stdout)[1] ?? 'null', true) ?? [];
    printf("%s: exit %s, stream %s, control %s\n", $title, var_export($code, true),
        preg_replace('/:\d+$/', ':PORT', $settings['stream'] ?? '?') ?: 'none', preg_replace('/:\d+$/', ':PORT', $settings['control'] ?? '?') ?: 'none');
    foreach ($warnings as $warning) {
        echo '  ', preg_replace(['/^(PHP )?Warning:\s+/', '/ in Unknown on line 0$/', '/\/\S*\/(secret|open-secret|short|fifo)\b/'], ['', '', '$1'], $warning), "\n";
    }
    if ($rest) {
        echo '  other stderr: ', json_encode($rest), "\n";
    }
}

run('0.0.0.0, stat.remote unset', $remote);
/* (127.0.0.2: the whole of 127/8 is loopback; "localhost" need not resolve, a minimal chroot has no /etc/hosts) */
run('loopback (127.0.0.1, 127.0.0.2)', ['stat.stream' => 'tcp://127.0.0.1:0', 'stat.control' => 'tcp://127.0.0.2:0']);
run('stat.remote=On, no stat.secret', $remote + ['stat.remote' => 'On']);
run('stat.remote=On, a 7-byte secret', $remote + ['stat.remote' => 'On', 'stat.secret' => "$dir/short"]);
run('stat.remote=On, a FIFO', $remote + ['stat.remote' => 'On', 'stat.secret' => "$dir/fifo"]);
run('stat.remote=On, no such file', $remote + ['stat.remote' => 'On', 'stat.secret' => "$dir/none"]);
run('stat.remote=On, mode 0644', $remote + ['stat.remote' => 'On', 'stat.secret' => $open]);
run('stat.remote=On, mode 0600', $remote + ['stat.remote' => 'On', 'stat.secret' => $good]);
?>
--EXPECTF--
0.0.0.0, stat.remote unset: exit 0, stream none, control none
  stat.stream: tcp://0.0.0.0:0 is not a loopback address: whoever reaches it could read every sampled request; refused: set stat.remote=On, and stat.secret to a file its clients must present, to open it on purpose (or listen on a unix socket or 127.0.0.1); stat runs without a stream socket
  stat.control: tcp://0.0.0.0:0 is not a loopback address: whoever reaches it could change sampling, and its cost, for the whole pool; refused: set stat.remote=On, and stat.secret to a file its clients must present, to open it on purpose (or listen on a unix socket or 127.0.0.1); stat runs without a control socket
loopback (127.0.0.1, 127.0.0.2): exit 0, stream tcp://127.0.0.1:PORT, control tcp://127.0.0.2:PORT
stat.remote=On, no stat.secret: exit 0, stream none, control none
  stat.stream: tcp://0.0.0.0:0 is remote (stat.remote=On) and needs a secret: stat.secret is not set (a file holding one line of 16 to 1024 bytes, e.g. made with: head -c 32 /dev/urandom | base64 > /etc/php/stat.secret; chmod 600 /etc/php/stat.secret); stat runs without a stream socket
  stat.control: tcp://0.0.0.0:0 is remote (stat.remote=On) and needs a secret, which stat.secret did not give (see above); stat runs without a control socket
stat.remote=On, a 7-byte secret: exit 0, stream none, control none
  stat.stream: tcp://0.0.0.0:0 is remote (stat.remote=On) and needs a secret: stat.secret: short must hold one line of 16 to 1024 bytes, it is shorter (e.g. made with: head -c 32 /dev/urandom | base64 > short); stat runs without a stream socket
  stat.control: tcp://0.0.0.0:0 is remote (stat.remote=On) and needs a secret, which stat.secret did not give (see above); stat runs without a control socket
stat.remote=On, a FIFO: exit 0, stream none, control none
  stat.stream: tcp://0.0.0.0:0 is remote (stat.remote=On) and needs a secret: stat.secret: fifo is not a regular file; stat runs without a stream socket
  stat.control: tcp://0.0.0.0:0 is remote (stat.remote=On) and needs a secret, which stat.secret did not give (see above); stat runs without a control socket
stat.remote=On, no such file: exit 0, stream none, control none
  stat.stream: tcp://0.0.0.0:0 is remote (stat.remote=On) and needs a secret: stat.secret: cannot open %s/none: No such file or directory; stat runs without a stream socket
  stat.control: tcp://0.0.0.0:0 is remote (stat.remote=On) and needs a secret, which stat.secret did not give (see above); stat runs without a control socket
stat.remote=On, mode 0644: exit 0, stream tcp://0.0.0.0:PORT, control tcp://0.0.0.0:PORT
  stat.secret: open-secret may be read by any user of this host (mode 0644): chmod o-r it
stat.remote=On, mode 0600: exit 0, stream tcp://0.0.0.0:PORT, control tcp://0.0.0.0:PORT
