--TEST--
stream: 8 PHPs started at once with one stat.stream path where a stale socket file lies, at a short path and at one too long to bind beside (bound in place), 4 rounds each, with unlink() and listen() slowed by 30 ms (slow.c: the moments a loaded machine stretches): exactly one serves and its listener answers at the path, every other one says the path is in use by another process, none fails on a file another removed ("No such file"), and the file is gone once all have ended
--SKIPIF--
<?php
require __DIR__ . '/../unit/unit.inc';
if (!stat_unit_cc()) die('skip no C compiler');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';
require __DIR__ . '/../unit/unit.inc';

$dir = stat_test_dir();
[$code, $out] = stat_unit_exec([stat_unit_cc(), '-shared', '-fPIC', '-Wall', '-Wextra', '-Werror', '-o', "$dir/slow.so", __DIR__ . '/slow.c', '-ldl']);
if ($code !== 0) {
    die("cc slow.c failed: $out");
}
/* the children only (after any preload of the suite's own, such as the sanitizers' runtime, which must come first) */
$preload = trim(getenv('LD_PRELOAD') . " $dir/slow.so");
/* (over 95 bytes: no room for the temporary name beside it, so it is bound in place) */
$long = "$dir/" . str_repeat('d', 100 - strlen($dir) - 8);
mkdir($long);
$paths = ['short' => "$dir/s.sock", 'long' => "$long/s.sock"];
$script = '<?php echo json_encode(["stream" => stat\settings()["stream"], "listener" => stat\settings()["listener"]["pid"]]), "\n"; fgets(STDIN);';
$bad = [];
foreach ($paths as $name => $path) {
    if ($name === 'long' && strlen($path) <= 95) {
        $bad[] = "the long path is " . strlen($path) . " bytes";
    }
    for ($round = 0; $round < 4; $round++) {
        /* a stale socket file: bound, and its server gone without removing it */
        $stale = stream_socket_server("unix://$path", $errno, $errstr);
        fclose($stale);
        if (!file_exists($path)) {
            $bad[] = "$name round $round: no stale file to start with";
        }
        $children = [];
        $before = getenv('LD_PRELOAD');
        putenv("LD_PRELOAD=$preload");
        putenv('STAT_TEST_SLOW_MS=30');
        for ($i = 0; $i < 8; $i++) {
            $children[] = new StatChild(['stat.stream' => "unix://$path"], $script);
        }
        putenv($before === false ? 'LD_PRELOAD' : "LD_PRELOAD=$before");
        putenv('STAT_TEST_SLOW_MS');
        $serving = [];
        $refused = 0;
        foreach ($children as $child) {
            $child->waitFor("\n");
            $seen = json_decode(trim($child->stdout()), true);
            if (str_contains($child->stderr(), 'No such file')) {
                $bad[] = "$name round $round: " . trim($child->stderr());
            }
            if (($seen['stream'] ?? '') !== '') {
                $serving[] = $seen['listener'];
            } elseif (str_contains($child->stderr(), 'is in use by another process')) {
                $refused++;
            } else {
                $bad[] = "$name round $round: neither serving nor refused: " . trim($child->stdout() . ' ' . $child->stderr());
            }
        }
        if (count($serving) !== 1 || $refused !== 7) {
            $bad[] = "$name round $round: " . count($serving) . " serving, $refused refused";
        }
        /* the file reaches the listener of the one that serves */
        $client = @stream_socket_client("unix://$path", $errno, $errstr, 5);
        $status = $client ? json_decode((string) fgets($client), true) : null;
        if (($status['type'] ?? '') !== 'status' || !in_array($status['listener']['pid'] ?? 0, $serving, true)) {
            $bad[] = "$name round $round: the file does not reach the serving listener: " . ($client ? json_encode($status['listener'] ?? null) : $errstr);
        }
        if ($client) {
            fclose($client);
        }
        foreach ($children as $child) {
            $child->send("\n");
            $child->wait();
        }
        /* (the listener removes it once it has served its last: under the sanitizers, 4 s after) */
        if (!stat_test_wait_gone($path, STAT_TEST_TIMEOUT)) {
            $probe = @stream_socket_client("unix://$path", $errno, $errstr, 1);
            $bad[] = "$name round $round: the file outlived them (" . ($probe ? 'a listener answers' : $errstr) . ')';
            @unlink($path);
        }
    }
}
echo $bad ? implode("\n", array_slice($bad, 0, 20)) : 'every round: one serves at the path, seven are refused, none loses its file', "\n";
?>
--EXPECT--
every round: one serves at the path, seven are refused, none loses its file
