--TEST--
stream: the unix socket file is 0600 by default, stat.socket_mode=0660 gives 0660
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$script = <<<'PHP'
<?php
echo "ready\n";
fgets(STDIN);
echo "end\n";
PHP;

/* a permissive umask in the test process (inherited by the children) must not widen the default */
umask(0);
foreach (['default' => [], '0660' => ['stat.socket_mode' => '0660'], '0644' => ['stat.socket_mode' => '0644']] as $name => $ini) {
    $path = "$dir/$name.sock";
    $child = new StatChild($ini + ['stat.stream' => $path], $script);
    $ready = $child->waitFor("ready\n");
    clearstatcache();
    printf("%s: ready %s, %s, mode %04o\n", $name, $ready ? 'yes' : 'no', @filetype($path), @fileperms($path) & 07777);
    $child->send("go\n");
    printf("%s: exit %s, stderr [%s]\n", $name, var_export($child->wait(), true), $child->stderr());
}
?>
--EXPECT--
default: ready yes, socket, mode 0600
default: exit 0, stderr []
0660: ready yes, socket, mode 0660
0660: exit 0, stderr []
0644: ready yes, socket, mode 0644
0644: exit 0, stderr []
