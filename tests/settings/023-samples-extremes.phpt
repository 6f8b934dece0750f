--TEST--
settings: stat.samples=1 (a ring of one slot) and 10000000 work: no warning, samples stream and dump as valid JSON, PHP exits 0 promptly; 16777217 is a warning naming stat.samples and using the maximum; a ring too large to map is one warning naming stat.samples, and PHP runs without stat
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$dir = stat_test_dir();
$script = <<<'PHP'
<?php
echo json_encode(stat\settings()), "\n";
fgets(STDIN);
$until = microtime(true) + 20;
while (stat\counters()['samples_written'] < 300 && microtime(true) < $until) {
    md5('x');
}
echo json_encode(stat\counters()), "\n";
PHP;
foreach (['1' => [], '10000000' => [], '16777217' => ['stat.stack' => '0']] as $samples => $more) {
    @unlink("$dir/stream.sock");
    $child = new StatChild(['stat.samples' => $samples, 'stat.stream' => "unix://$dir/stream.sock", 'stat.dump' => '3', 'stat.interval' => '200'] + $more,
        $script, [3 => ['file', "$dir/dump.jsonl", 'w']]);
    $child->waitFor("\n");
    $settings = json_decode(strtok($child->stdout(), "\n"), true);
    if ($settings === []) {
        /* stat could not map its memory: it says so, naming the setting, and PHP runs on */
        $child->send("go\n");
        $code = $child->wait();
        printf("samples=%s: not mapped on this machine: %s\n", $samples,
            preg_match('/^Warning: stat: cannot map .* for stat\.samples=\d+ .*; stat is disabled/m', $child->stderr()) && $code === 0 ? 'one clear warning, exit 0' : $child->stderr());
        continue;
    }
    $stream = new StatStream("$dir/stream.sock");
    $child->send("go\n");
    $start = microtime(true);
    $stream->readAll();
    $code = $child->wait();
    $counters = json_decode(explode("\n", $child->stdout())[1] ?? 'null', true);
    [$dumped, $lost, $invalid] = stat_test_decode(file_get_contents("$dir/dump.jsonl"));
    $warnings = trim($child->stderr());
    printf("samples=%s: ring %s, exit %d, warning: %s\n", $samples, var_export($settings['samples'], true), $code,
        $warnings === '' ? 'none' : (str_contains($warnings, "stat.samples must be from 1 to 16777216 slots, $samples given; using 16777216") ? 'names stat.samples and the maximum used' : $warnings));
    printf("  stream: %s samples, all lines valid JSON: %s, ends: %s\n", count($stream->samples) > 0 ? 'some' : 'no', $stream->invalid === [] && $stream->rest() === '' ? 'yes' : 'no',
        var_export($stream->eof, true));
    printf("  dump: valid JSON: %s, samples: %s (at most the ring)\n", $invalid === [] ? 'yes' : 'no', count($dumped) >= 1 && count($dumped) <= $settings['samples'] ? 'yes' : count($dumped));
    printf("  samples written: %s\n", ($counters['samples_written'] ?? 0) >= 300 ? '300 or more' : json_encode($counters));
}
?>
--EXPECTF--
samples=1: ring 1, exit 0, warning: none
  stream: some samples, all lines valid JSON: yes, ends: true
  dump: valid JSON: yes, samples: yes (at most the ring)
  samples written: 300 or more
samples=10000000: %r(ring 10000000, exit 0, warning: none
  stream: some samples, all lines valid JSON: yes, ends: true
  dump: valid JSON: yes, samples: yes \(at most the ring\)
  samples written: 300 or more|not mapped on this machine: one clear warning, exit 0)%r
samples=16777217: %r(ring 16777216, exit 0, warning: names stat.samples and the maximum used
  stream: some samples, all lines valid JSON: yes, ends: true
  dump: valid JSON: yes, samples: yes \(at most the ring\)
  samples written: 300 or more|not mapped on this machine: one clear warning, exit 0)%r
