--TEST--
dump: stat.dump=3 with fd 3 a file: at exit every line is valid JSON and samples name the functions that ran
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/dump.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.dump' => '3', 'stat.interval' => '100'], STAT_DUMP_SCRIPT, [3 => ['file', "$dir/dump.jsonl", 'w']]);
var_dump($child->waitFor("ready\n"));
$child->send("go\n");
var_dump($child->wait(), $child->stdout(), $child->stderr());
stat_dump_check(file_get_contents("$dir/dump.jsonl"), $child->pid());
?>
--EXPECT--
bool(true)
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
