--TEST--
client: record saves a live stream (to EOF, --samples, --seconds, Ctrl-C) through a temporary file renamed at the end; the recording reads back
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

/* temporary files statq may have left beside a target */
function leftovers(string $dir): array
{
    return array_values(array_filter(scandir($dir), fn($f) => preg_match('/^\..+\.[A-Za-z0-9]{6}$/', $f)));
}

/* 1. to the end of the stream: the recording holds what stat's own dump holds */
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '500', 'stat.stack' => '16',
    'stat.dump' => '3'], statq_hot_script(300, 'client'), [3 => ['file', "$dir/dump.jsonl", 'w']]);
var_dump($child->waitFor("ready\n"));
$record = new Statq(['record', '-s', "unix://$dir/stream.sock", '-o', "$dir/all.jsonl"]);
var_dump($child->wait());
printf("record: exit %d, stderr %s, stdout %s\n", $record->wait(), $record->stderr() === '' ? 'empty' : $record->stderr(),
    $record->stdout() === '' ? 'empty' : 'not empty');
[$recorded, $lost, $invalid] = stat_test_decode(file_get_contents("$dir/all.jsonl"));
[$dumped] = stat_test_decode(file_get_contents("$dir/dump.jsonl"));
$key = fn($s) => sprintf('%d %.6f %s', $s['request']['pid'], $s['elapsed'], json_encode($s['stack'] ?? stat_test_symbol($s)));
$a = array_map($key, $recorded);
$b = array_map($key, $dumped);
sort($a);
sort($b);
printf("recorded: %s samples, invalid %d, same samples as the dump: %s\n", count($recorded) >= 300 ? 'enough' : count($recorded),
    count($invalid), $a === $b ? 'yes' : 'no (' . count($a) . ' vs ' . count($b) . ')');
[$code, $out] = statq_run(['fold', '-f', "$dir/all.jsonl"]);
/* (each sample counted as its weight) */
printf("reads back: %s\n", array_sum(statq_parse_folded($out)) === statq_weighted(array_filter($recorded, fn($s) => statq_expected_frames($s) !== null)) ? 'yes' : 'no');

/* 2. Ctrl-C: the file appears only at the end, complete */
$child = new StatChild(['stat.stream' => "unix://$dir/stream2.sock", 'stat.interval' => '1000'], <<<'PHP'
<?php
echo "ready\n";
while (($line = fgets(STDIN)) !== false && trim($line) !== 'stop') {
}
PHP);
var_dump($child->waitFor("ready\n"));
$record = new Statq(['record', '-s', "unix://$dir/stream2.sock", '-o', "$dir/int.jsonl"]);
$deadline = microtime(true) + STAT_TEST_TIMEOUT;
do {
    clearstatcache();
    $temp = leftovers($dir);
    $growing = $temp && filesize("$dir/{$temp[0]}") > 0;
} while (!$growing && $record->running() && microtime(true) < $deadline && usleep(10000) === null);
printf("while recording: temporary file growing: %s, target absent: %s\n", $growing ? 'yes' : 'no', file_exists("$dir/int.jsonl") ? 'no' : 'yes');
$record->signal(SIGINT);
printf("after SIGINT: exit %s, stderr %s\n", var_export($record->wait(10), true),
    /* the child sampled itself before statq connected: those samples are left out, and said so */
    preg_replace('/^statq: record: left out \d+ samples taken before statq connected \(the ring\'s backlog; --backlog keeps them\)\n/', '', $record->stderr()) ?: 'empty');
[$samples, $lost, $invalid] = stat_test_decode((string) @file_get_contents("$dir/int.jsonl"));
printf("file complete: %s, invalid %d, leftovers %d\n", count($samples) > 0 && str_ends_with(file_get_contents("$dir/int.jsonl"), "\n") ? 'yes' : 'no',
    count($invalid), count(leftovers($dir)));

/* 3. --samples N stops after N samples; --seconds stops on time with the stream still open */
[$code, $out, $err] = statq_run(['record', '--samples', '25', '-s', "unix://$dir/stream2.sock", '-o', "$dir/n.jsonl"]);
[$samples] = stat_test_decode(file_get_contents("$dir/n.jsonl"));
printf("--samples 25: exit %d, samples %d\n", $code, count($samples));
[$code, $out, $err] = statq_run(['record', '--seconds', '0.3', '-s', "unix://$dir/stream2.sock"]);
[$samples, $lost, $invalid] = stat_test_decode($out);
printf("--seconds to stdout: exit %d, samples %s, invalid %d\n", $code, count($samples) > 0 ? 'yes' : 'none', count($invalid));
$child->send("stop\n");
var_dump($child->wait());

/* 4. a target in a missing directory fails before reading, and leaves nothing */
[$code, $out, $err] = statq_run(['record', '-f', __DIR__ . '/fixtures/shop.jsonl', '-o', "$dir/missing/x.jsonl"]);
printf("missing directory: exit %d, says so: %s\n", $code, strpos($err, "cannot create a temporary file beside $dir/missing/x.jsonl") !== false ? 'yes' : 'no');
var_dump(leftovers($dir));
?>
--EXPECT--
bool(true)
int(0)
record: exit 0, stderr empty, stdout empty
recorded: enough samples, invalid 0, same samples as the dump: yes
reads back: yes
bool(true)
while recording: temporary file growing: yes, target absent: yes
after SIGINT: exit 0, stderr empty
file complete: yes, invalid 0, leftovers 0
--samples 25: exit 0, samples 25
--seconds to stdout: exit 0, samples yes, invalid 0
int(0)
missing directory: exit 1, says so: yes
array(0) {
}
