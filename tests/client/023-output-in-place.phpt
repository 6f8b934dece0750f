--TEST--
client: -o naming something that is not a regular file (a FIFO, /dev/null) writes into it in place: it stays a FIFO or a device (a rename over it would have replaced it with a file; as root /dev/null itself); a regular file is still replaced whole
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason");
if (!function_exists('posix_mkfifo') && !is_executable('/usr/bin/mkfifo')) die('skip no mkfifo'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$dir = stat_test_dir();
$fixture = __DIR__ . '/fixtures/shop.jsonl';
[, $expected] = statq_run(['fold', '-f', $fixture]);

/* a FIFO with a reader at the other end */
exec('mkfifo ' . escapeshellarg("$dir/pipe"));
$cat = proc_open(['cat', "$dir/pipe"], [1 => ['file', "$dir/from-pipe", 'w']], $pipes);
[$code, $out, $err] = statq_run(['fold', '-f', $fixture, '-o', "$dir/pipe"]);
proc_close($cat);
printf("fifo: exit %d%s, still a fifo: %s, the reader got the folded stacks: %s\n", $code, $err === '' ? '' : ", $err",
    filetype("$dir/pipe"), file_get_contents("$dir/from-pipe") === $expected ? 'yes' : 'no');

/*
 * A null device: as root a node of our own made like /dev/null (so that a
 * regression replaces that one, not the machine's); otherwise /dev/null, which
 * a user cannot replace anyway
 */
$null = '/dev/null';
if (trim((string) shell_exec('id -u')) === '0') {
    exec('mknod ' . escapeshellarg("$dir/null") . ' c 1 3 && chmod 666 ' . escapeshellarg("$dir/null"), $o, $made);
    $null = $made === 0 ? "$dir/null" : $null;
}
foreach (['fold', 'record', 'flame'] as $command) {
    [$code, $out, $err] = statq_run([$command, '-f', $fixture, '-o', $null]);
    clearstatcache();
    printf("%s -o NULL: exit %d%s, still %s\n", $command, $code, $err === '' ? '' : ", $err", filetype($null));
}

/* a regular file: replaced whole, nothing left beside it */
file_put_contents("$dir/out.folded", "old\n");
[$code] = statq_run(['fold', '-f', $fixture, '-o', "$dir/out.folded"]);
printf("regular file: exit %d, replaced: %s, temporary files left: %d\n", $code, file_get_contents("$dir/out.folded") === $expected ? 'yes' : 'no',
    count(glob("$dir/.out.folded.*")));
?>
--EXPECT--
fifo: exit 0, still a fifo: fifo, the reader got the folded stacks: yes
fold -o NULL: exit 0, still char
record -o NULL: exit 0, still char
flame -o NULL: exit 0, still char
regular file: exit 0, replaced: yes, temporary files left: 0
