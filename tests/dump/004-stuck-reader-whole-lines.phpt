--TEST--
dump: a pipe nobody reads until PHP has exited: PHP exits after the 2 s deadline, the dump holds whole lines only and ends with a lost line, samples + lost = the samples the ring held; the log says how many were not written
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/dump.inc';

/* deep stacks make long lines: many lines over a pipe buffer */
$child = new StatChild(['stat.dump' => '3', 'stat.interval' => '50', 'stat.stack' => '64', 'stat.samples' => '20000'], <<<'PHP'
<?php
function down(int $n): int { return $n > 0 ? down($n - 1) + 1 : spin(); }
function spin(): int { $t = 0; for ($i = 0; $i < 20000; $i++) { $t += $i; } return $t; }
$deadline = microtime(true) + 20;
while (stat\counters()['samples_written'] < 6000 && microtime(true) < $deadline) {
    down(40);
}
stat\sampler\deactivate();
$c = stat\counters();
echo json_encode(['held' => min($c['ring_head'], 20000)]), "\n";
PHP, [3 => ['pipe', 'w']]);
$started = microtime(true);
$code = $child->wait();
$took = microtime(true) - $started;
printf("exit: %s\n", var_export($code, true));
/* only now read what the pipe holds */
$text = stat_dump_read_pipe($child->pipes[3]);
[$samples, $lost, $invalid] = stat_test_decode((string) $text);
$held = json_decode(trim($child->stdout()), true)['held'] ?? -1;
printf("ends with a newline: %s\n", $text !== '' && substr($text, -1) === "\n" ? 'yes' : 'no');
printf("invalid lines: %d\n", count($invalid));
printf("fewer samples than held (the pipe was full): %s\n", count($samples) > 0 && count($samples) < $held ? 'yes' : 'no (' . count($samples) . " of $held)");
$lines = explode("\n", rtrim((string) $text, "\n"));
printf("last line is lost: %s\n", (json_decode(end($lines), true)['type'] ?? '') === 'lost' ? 'yes' : 'no');
$lostCount = array_sum(array_column($lost, 'count'));
printf("samples + lost = held: %s\n", count($samples) + $lostCount === $held ? 'yes' : 'no (' . count($samples) . " + $lostCount vs $held)");
$said = preg_match('/stat\.dump: the reader of file descriptor 3 did not take the samples in time; (\d+) samples not written/', $child->stderr(), $m);
printf("the log says so: %s\n", $said ? 'yes' : 'no: ' . $child->stderr());
printf("and the same number: %s\n", $said && (int) $m[1] === $lostCount ? 'yes' : 'no');
?>
--EXPECT--
exit: 0
ends with a newline: yes
invalid lines: 0
fewer samples than held (the pipe was full): yes
last line is lost: yes
samples + lost = held: yes
the log says so: yes
and the same number: yes
