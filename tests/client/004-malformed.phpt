--TEST--
client: malformed lines are skipped, counted in one warning on stderr, never fatal; results as without them
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$clean = file(__DIR__ . '/fixtures/shop.jsonl');
$bad = [
    "this is not json\n",
    "{\"type\":\"user\",\"request\":{\"pid\":1,\n",       /* cut short */
    "[1,2,3]\n",                                          /* not an object */
    "{\"request\":{\"pid\":1},\"elapsed\":1.0}\n",        /* no type */
    "{\"type\":\"user\"} trailing\n",                     /* garbage after the object */
    "\xff\xfe\x00binary\n",
    /* a backslash before a non-ASCII character is no escape, in a sample's head and in its frames (a json-c
       that needs non-ASCII written as \u escapes would read the backslash and \u00e9 as an escaped backslash) */
    str_replace('"path":"', "\"path\":\"\\\u{e9}", $clean[3]),
    str_replace('"location":{"file":"', "\"location\":{\"file\":\"\\\u{1F600}", $clean[5]),
    /* a single-quoted key, which json-c takes even strict: before the frames and among them */
    str_replace('"memory":', "'memory':", $clean[7]),
    str_replace('"symbol":', "'symbol':", $clean[9]),
];
$lines = $clean;
foreach ($bad as $i => $line) {
    array_splice($lines, 10 + 37 * $i, 0, [$line]);
}
$dirty = implode('', $lines) . '{"type":"user","elapsed":'; /* and a broken last line, no newline */
$dir = stat_test_dir();
file_put_contents("$dir/dirty.jsonl", $dirty);
file_put_contents("$dir/clean.jsonl", implode('', $clean));
$count = count($bad) + 1;

foreach (['fold', 'speedscope', 'flame'] as $command) {
    [$code, $expected] = statq_run([$command, '-f', "$dir/clean.jsonl"]);
    [$code, $out, $err] = statq_run([$command, '-f', "$dir/dirty.jsonl"]);
    if ($command === 'flame') {
        $same = statq_flame_data($out)['tree'] === statq_flame_data($expected)['tree'];
    } elseif ($command === 'speedscope') {
        /* the file's name is the source's: leave it out */
        $a = json_decode($out, true);
        $b = json_decode($expected, true);
        unset($a['name'], $b['name']);
        $same = $a === $b && $a !== null;
    } else {
        $same = $out === $expected;
    }
    printf("%s: exit %d, same result: %s, warning: %s\n", $command, $code, $same ? 'yes' : 'no', trim($err));
}
[$code, $out, $err] = statq_run(['top', '--once', '-f', "$dir/dirty.jsonl"]);
printf("top: exit %d, header: %s, warnings: %d\n", $code, preg_match("/malformed $count,/", $out) ? 'counted' : 'not counted', substr_count($err, 'warning'));

/* through stdin and record too */
[$code, $out, $err] = statq_run(['record', '-o', "$dir/copy.jsonl"], $dirty);
printf("record: exit %d, kept only good lines: %s, warning: %s\n", $code,
    file_get_contents("$dir/copy.jsonl") === implode('', $clean) ? 'yes' : 'no', trim($err));

/* nothing but garbage: no output, an error (exit 1) saying so after the warning */
[$code, $out, $err] = statq_run(['fold'], "garbage\n{\n");
printf("only garbage: exit %d, output %s, stderr:\n%s", $code, $out === '' ? 'empty' : 'not empty', $err);
?>
--EXPECTF--
fold: exit 0, same result: yes, warning: statq: warning: skipped 11 malformed lines in %sdirty.jsonl
speedscope: exit 0, same result: yes, warning: statq: warning: skipped 11 malformed lines in %sdirty.jsonl
flame: exit 0, same result: yes, warning: statq: warning: skipped 11 malformed lines in %sdirty.jsonl
top: exit 0, header: counted, warnings: 1
record: exit 0, kept only good lines: yes, warning: statq: warning: skipped 11 malformed lines in stdin
only garbage: exit 1, output empty, stderr:
statq: warning: skipped 2 malformed lines in stdin
statq: fold: no samples in stdin: 2 lines, none of them a stat sample (is it a recording of stat's stream?)
