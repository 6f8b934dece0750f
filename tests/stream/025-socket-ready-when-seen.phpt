--TEST--
stream: the socket file appears only once it listens, with its final mode: a client that connects the moment it sees the file is accepted and finds stat.socket_mode already set (20 starts, the file watched in a tight loop); no temporary file is left beside it
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

$dir = stat_test_dir();
$path = "$dir/s.sock";
$refused = $early = $seen = 0;
for ($run = 0; $run < 20; $run++) {
    clearstatcache();
    $child = new StatChild(['stat.stream' => "unix://$path", 'stat.socket_mode' => '0660'], '<?php fgets(STDIN);');
    $deadline = microtime(true) + STAT_TEST_TIMEOUT;
    /* watch for the file as closely as PHP can, then connect at once */
    while (!@file_exists($path) && microtime(true) < $deadline) {
        clearstatcache(true, $path);
    }
    $mode = @fileperms($path);
    $client = @stream_socket_client("unix://$path", $errno, $errstr, 5);
    $seen++;
    if ($client === false) {
        $refused++;
        echo "refused: $errstr\n";
    } else {
        fclose($client);
    }
    if ($mode === false || ($mode & 0777) !== 0660) {
        $early++;
        printf("mode when first seen: %s\n", $mode === false ? 'gone' : sprintf('%04o', $mode & 0777));
    }
    $child->send("\n");
    $child->wait();
    /* (the listener removes the file when it stops) */
    stat_test_until(fn() => !file_exists($path));
}
printf("starts: %d, refused: %d, mode not yet set: %d\n", $seen, $refused, $early);
printf("socket files left: %s\n", json_encode(array_values(array_filter(scandir($dir), fn($f) => str_starts_with($f, 's.sock')))));
?>
--EXPECT--
starts: 20, refused: 0, mode not yet set: 0
socket files left: []
