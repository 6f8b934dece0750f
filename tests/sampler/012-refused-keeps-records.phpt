--TEST--
sampler: requests refused by stat.samplers write no request record: 300 refused starts in a table of 256 records leave the sampled request's record, and every one of its samples keeps its path
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl is not available'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

/*
 * A holder process takes the one place (stat.samplers=1) and samples its
 * request (record id 1) until told to stop; meanwhile 300 processes are
 * refused a place. stat.samples=100 makes a table of 256 records (the
 * least): had each refused start written a record, the holder's would be
 * reused and its samples would lose their path. The dump (fd 3, written by
 * this script's process at exit) is read after.
 */
$dir = stat_test_dir();
$child = new StatChild(['stat.samplers' => '1', 'stat.auto' => '0', 'stat.samples' => '100',
    'stat.interval' => '1000', 'stat.dump' => '3'], <<<'PHP'
<?php
function holder_spin($socket): void {
    $t = 0;
    while (true) {
        for ($i = 0; $i < 2000; $i++) { $t += $i; }
        $read = [$socket];
        $write = $except = null;
        if (stream_select($read, $write, $except, 0) > 0) {
            return;
        }
    }
}
[$ours, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$holder = pcntl_fork();
if ($holder === 0) {
    fclose($ours);
    $sampled = stat\sampler\activate();
    fwrite($theirs, $sampled ? "sampled\n" : "refused\n");
    holder_spin($theirs);
    exit(0);
}
fclose($theirs);
stream_set_timeout($ours, 30);
$holder_said = trim((string) fgets($ours));
$refused = 0;
for ($i = 0; $i < 300; $i++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        exit(stat\sampler\activate() ? 1 : 0);
    }
    pcntl_waitpid($pid, $status);
    if (pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0) {
        $refused++;
    }
}
/* a ring's worth of the holder's samples (however fast the refusals went) */
$deadline = microtime(true) + 30;
while (stat\counters()['samples_written'] < 100 && microtime(true) < $deadline) {
    usleep(1000);
}
fwrite($ours, "stop\n");
pcntl_waitpid($holder, $status);
echo json_encode(['holder' => $holder, 'holder said' => $holder_said, 'refused' => $refused,
    'samplers_refused' => stat\counters()['samplers_refused']]), "\n";
PHP, [3 => ['file', "$dir/dump.jsonl", 'w']]);
printf("exit: %s\n", var_export($child->wait(120), true));
echo $child->stderr();
$report = json_decode(trim($child->stdout()), true);
printf("holder: %s, refused: %d, counted refused: %d\n", $report['holder said'] ?? '?', $report['refused'] ?? -1,
    $report['samplers_refused'] ?? -1);

$samples = $with_path = 0;
$paths = [];
foreach (explode("\n", trim((string) file_get_contents("$dir/dump.jsonl"))) as $line) {
    $sample = json_decode($line, true);
    if (!is_array($sample) || ($sample['request']['pid'] ?? null) !== ($report['holder'] ?? -1)) {
        continue;
    }
    $samples++;
    if (isset($sample['request']['path'])) {
        $with_path++;
        $paths[basename($sample['request']['path'])] = true;
    }
}
printf("holder's samples in the dump: %s\n", $samples >= 50 ? 'at least 50' : $samples);
printf("of them with the holder's path: %s\n", $samples > 0 && $with_path === $samples ? 'all' : "$with_path of $samples");
printf("path is the script's: %s\n", count($paths) === 1 && str_starts_with((string) array_key_first($paths), 'child-') ? 'yes' : json_encode($paths));
?>
--EXPECT--
exit: 0
holder: sampled, refused: 300, counted refused: 300
holder's samples in the dump: at least 50
of them with the holder's path: all
path is the script's: yes
