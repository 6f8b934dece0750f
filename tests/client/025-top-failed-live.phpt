--TEST--
client: top reading a live pool says how many samples stat failed to take while it read ("failed N (P% of the pool's)", from the pool's counters at its connection and at its end: stat sends no line for them), within what the pool counted; a recording, which cannot know, says n/a
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$dir = stat_test_dir();
statq_binary();

/* a pool that stays: sampling a loop of short calls (the kind that fails now and then) until told to stop */
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '100'], <<<'PHP'
<?php
function tiny(int $i): int { return $i + 1; }
echo "ready\n";
$stdin = fopen('php://stdin', 'r');
stream_set_blocking($stdin, false);
for ($i = 0; fgets($stdin) === false; $i++) {
    tiny($i);
    if ($i % 100000 === 0) {
        usleep(100);
    }
}
$c = stat\counters();
echo json_encode(['written' => $c['samples_written'], 'failed' => $c['samples_failed']]), "\n";
PHP);
var_dump($child->waitFor("ready\n"));
[$code, $out, $err] = statq_run(['top', '--once', '--seconds', '1', '-s', "unix://$dir/stream.sock"]);
$child->send("stop\n");
var_dump($child->wait());
$pool = json_decode(trim(substr($child->stdout(), strlen("ready\n"))), true);
printf("top: exit %d, stderr %s\n", $code, $err === '' ? 'empty' : $err);
$header = preg_match('/^samples (\d+) \(weighted \d+\), rate [\d.]+\/s, lost \d+, failed (\d+) \(([\d.]+)% of the pool\'s\), /m', $out, $m);
printf("failed from the pool: %s\n", $header ? 'yes' : "no:\n$out");
if ($header) {
    [, $samples, $failed, $percent] = $m;
    printf("within the pool's count: %s\n", $failed <= $pool['failed'] ? 'yes' : "no ($failed of {$pool['failed']})");
    /*
     * what the pool took while top read: the samples top got, and the
     * failed; the share is printed to 0.01%, so the count it stands for
     * lies between what its rounding allows (1 of 8,000 prints 0.01%)
     */
    $most = $failed / max(1e-9, ($percent - 0.005) / 100);
    $least = $failed / (($percent + 0.005) / 100);
    printf("share of what the pool took while top read: %s\n", $failed == 0 || ($most >= $samples && $least <= $pool['written'] + $pool['failed'])
        ? 'yes' : "no ($failed at $percent%: $least to $most, top read $samples, the pool took " . ($pool['written'] + $pool['failed']) . ")");
}

/* a recording cannot know: n/a */
$recording = "$dir/r.jsonl";
file_put_contents($recording, '{"type":"user","request":{"pid":1,"elapsed":1.0},"elapsed":1.5,"symbol":{"function":"f"},"stack":[{"function":"f","file":"a.php","line":1}]}' . "\n");
[$code, $out] = statq_run(['top', '--once', '-f', $recording]);
printf("recording: failed %s\n", preg_match('/, failed (\S+), /', $out, $m) ? $m[1] : '?');
?>
--EXPECT--
bool(true)
int(0)
top: exit 0, stderr empty
failed from the pool: yes
within the pool's count: yes
share of what the pool took while top read: yes
recording: failed n/a
