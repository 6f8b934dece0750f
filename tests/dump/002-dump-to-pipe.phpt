--TEST--
dump: stat.dump=3 with fd 3 a pipe read while the child runs: every line is valid JSON, samples name the functions that ran
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/dump.inc';

$child = new StatChild(['stat.dump' => '3', 'stat.interval' => '100'], STAT_DUMP_SCRIPT, [3 => ['pipe', 'w']]);
$pid = $child->pid();
var_dump($child->waitFor("ready\n"));
$child->send("go\n");
$text = stat_dump_read_pipe($child->pipes[3]);
printf("pipe reached EOF: %s\n", $text !== null ? 'yes' : 'no');
var_dump($child->wait(), $child->stdout(), $child->stderr());
stat_dump_check((string) $text, $pid);
printf("more than a pipe buffer: %s\n", strlen((string) $text) > 65536 ? 'yes' : 'no (' . strlen((string) $text) . ' bytes)');
?>
--EXPECT--
bool(true)
pipe reached EOF: yes
int(0)
string(11) "ready
done
"
string(0) ""
ends with a newline: yes
invalid lines: 0
lost lines: 0
enough samples: yes
dump_work_hash sampled: yes
dump_work_sum sampled: yes
pid is the child's: yes
types known: yes
more than a pipe buffer: yes
