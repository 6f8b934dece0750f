--TEST--
client: gzip: record -o FILE.gz writes gzip (zlib) from a live stream; every reader takes gzip by its magic bytes (any name, stdin, concatenated members); a cut-short file is read with a warning, corrupt data is an error
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason() ?? stat_test_extensions_missing(['zlib'])) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$dir = stat_test_dir();
statq_binary();
$show = fn(string $text): string => str_replace($dir, 'DIR', $text);

/* a live recording straight to gzip, and the same stream as plain text through a second client */
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.auto' => '0', 'stat.interval' => '500', 'stat.stack' => '16'],
    statq_hot_script(400, 'client'));
var_dump($child->waitFor("ready\n"));
$gz = new Statq(['record', '-s', "$dir/stream.sock", '-o', "$dir/live.jsonl.gz"]);
var_dump($child->wait());
printf("record -o .gz: exit %d, stderr %s\n", $gz->wait(), $gz->stderr() === '' ? 'empty' : $gz->stderr());
$bytes = file_get_contents("$dir/live.jsonl.gz");
$text = gzdecode($bytes);
[$samples, $lost, $invalid] = stat_test_decode((string) $text);
printf("gzip magic: %s, decodes: %s, samples: %s, invalid %d, smaller than the text: %s\n", bin2hex(substr($bytes, 0, 2)),
    $text !== false ? 'yes' : 'no', count($samples) >= 400 ? 'all' : count($samples), count($invalid), strlen($bytes) * 3 < strlen($text) ? 'yes' : 'no');
file_put_contents("$dir/live.jsonl", $text);

/* every reader gives the same result from the gzip file as from the text */
[$code, $plain] = statq_run(['fold', '-f', "$dir/live.jsonl"]);
foreach (['fold', 'top'] as $command) {
    $args = $command === 'top' ? ['top', '--once', '--rows', '0'] : [$command];
    [$code, $expected] = statq_run(array_merge($args, ['-f', "$dir/live.jsonl"]));
    [$code, $out, $err] = statq_run(array_merge($args, ['-f', "$dir/live.jsonl.gz"]));
    $strip = fn(string $s): string => preg_replace('/^statq top: .*\n/', '', $s);
    printf("%s -f .gz: exit %d, same as the text: %s, stderr %s\n", $command, $code, $strip($out) === $strip($expected) ? 'yes' : 'no', $err === '' ? 'empty' : $err);
}
[$code, $out] = statq_run(['speedscope', '-f', "$dir/live.jsonl.gz", '-o', "$dir/a.json"]);
[$code2, $out] = statq_run(['speedscope', '-f', "$dir/live.jsonl", '-o', "$dir/b.json"]);
$a = json_decode(file_get_contents("$dir/a.json"), true);
$b = json_decode(file_get_contents("$dir/b.json"), true);
unset($a['name'], $b['name']);
printf("speedscope -f .gz: exit %d, same: %s\n", $code, $a === $b && $a !== null ? 'yes' : 'no');

/* known by its bytes, not its name: a gzip file named .jsonl, and gzip on stdin */
copy("$dir/live.jsonl.gz", "$dir/renamed.jsonl");
[$code, $out] = statq_run(['fold', '-f', "$dir/renamed.jsonl"]);
printf("gzip named .jsonl: %s\n", $out === $plain ? 'same' : 'different');
[$code, $out] = statq_run(['fold'], $bytes);
printf("gzip on stdin: %s\n", $out === $plain ? 'same' : 'different');

/* two members one after the other (gzip a >> b) read as one file */
$half = intdiv(count($lines = explode("\n", rtrim($text, "\n"))), 2);
file_put_contents("$dir/two.gz", gzencode(implode("\n", array_slice($lines, 0, $half)) . "\n") . gzencode(implode("\n", array_slice($lines, $half)) . "\n"));
[$code, $out] = statq_run(['fold', '-f', "$dir/two.gz"]);
printf("concatenated members: %s\n", $out === $plain ? 'same' : 'different');

/* a file cut short: what it holds is read, with a warning; corrupt data: an error */
file_put_contents("$dir/cut.gz", substr($bytes, 0, intdiv(strlen($bytes), 2)));
[$code, $out, $err] = statq_run(['fold', '-f', "$dir/cut.gz"]);
$sum = array_sum(statq_parse_folded($out));
printf("cut short: exit %d, some samples: %s\n%s", $code, $sum > 0 && $sum < array_sum(statq_parse_folded($plain)) ? 'yes' : 'no',
    /* the last line is usually cut in the middle (a malformed line, warned about): leave that warning out */
    str_replace("statq: warning: skipped 1 malformed line in DIR/cut.gz\n", '', $show($err)));
file_put_contents("$dir/bad.gz", substr($bytes, 0, 10) . str_repeat("\xff", 200));
[$code, $out, $err] = statq_run(['fold', '-f', "$dir/bad.gz"]);
printf("corrupt: exit %d\n%s", $code, $show($err));

/* -o FILE.gz for the other writers too */
[$code] = statq_run(['fold', '-f', "$dir/live.jsonl", '-o', "$dir/live.folded.gz"]);
printf("fold -o .gz: exit %d, same when inflated: %s\n", $code, gzdecode(file_get_contents("$dir/live.folded.gz")) === $plain ? 'yes' : 'no');
?>
--EXPECTF--
bool(true)
int(0)
record -o .gz: exit 0, stderr empty
gzip magic: 1f8b, decodes: yes, samples: all, invalid 0, smaller than the text: yes
fold -f .gz: exit 0, same as the text: yes, stderr empty
top -f .gz: exit 0, same as the text: yes, stderr empty
speedscope -f .gz: exit 0, same: yes
gzip named .jsonl: same
gzip on stdin: same
concatenated members: same
cut short: exit 0, some samples: yes
statq: warning: DIR/cut.gz ends inside its gzip data (a file cut short?): read what it holds
corrupt: exit 1
statq: fold: DIR/bad.gz: corrupt gzip data: invalid block type
fold -o .gz: exit 0, same when inflated: yes
