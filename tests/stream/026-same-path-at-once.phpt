--TEST--
stream: two PHPs started at once with the same stat.stream path (10 times): one gets the socket, the other's startup warning says it is in use by another process; neither takes the file from the other, and the file always reaches the one that serves
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

$dir = stat_test_dir();
$path = "$dir/s.sock";
$script = '<?php echo json_encode(["stream" => stat\settings()["stream"], "pid" => getmypid()]), "\n"; fgets(STDIN);';
$bad = [];
for ($round = 0; $round < 10; $round++) {
    $children = [];
    for ($i = 0; $i < 2; $i++) {
        $children[] = new StatChild(['stat.stream' => "unix://$path"], $script);
    }
    $serving = $refused = 0;
    foreach ($children as $child) {
        $child->waitFor("\n");
        $seen = json_decode(trim($child->stdout()), true);
        if (($seen['stream'] ?? '') !== '') {
            $serving++;
        } elseif (str_contains($child->stderr(), 'is in use by another process')) {
            $refused++;
        } else {
            $bad[] = "round $round: neither serving nor refused: " . trim($child->stdout() . ' ' . $child->stderr());
        }
    }
    /* the file reaches a listener: a status line */
    $client = @stream_socket_client("unix://$path", $errno, $errstr, 5);
    $status = $client ? json_decode((string) fgets($client), true) : null;
    if (($status['type'] ?? '') !== 'status') {
        $bad[] = "round $round: the file does not reach a listener: $errstr";
    }
    if ($client) {
        fclose($client);
    }
    if ($serving !== 1 || $refused !== 1) {
        $bad[] = "round $round: $serving serving, $refused refused";
    }
    foreach ($children as $child) {
        $child->send("\n");
        $child->wait();
    }
    stat_test_until(fn() => !file_exists($path));
}
echo $bad ? implode("\n", $bad) : 'every round: one serves, the other is refused, the file reaches the one that serves', "\n";
?>
--EXPECT--
every round: one serves, the other is refused, the file reaches the one that serves
