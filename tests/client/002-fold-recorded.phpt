--TEST--
client: fold of a stream recorded by stat from a real script: counts sum to the samples, stacks as documented, --group, --idle, stdin
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$file = statq_record_script(statq_hot_script(400), ['stat.interval' => '500', 'stat.stack' => '16']);
[$samples, $lost, $invalid] = stat_test_decode(file_get_contents($file));
printf("recorded: %s, invalid lines: %d\n", count($samples) >= 100 ? 'yes' : 'no (' . count($samples) . ')', count($invalid));
$busy = array_filter($samples, fn($s) => statq_expected_frames($s) !== null);

[$code, $out, $err] = statq_run(['fold', '-f', $file]);
$folded = statq_parse_folded($out);
printf("fold: exit %d, stderr empty: %s\n", $code, $err === '' ? 'yes' : 'no: ' . $err);
/* each sample counts as its weight (a late tick's stands for the intervals it missed) */
printf("counts sum to the samples: %s\n", array_sum($folded) === statq_weighted($busy) ? 'yes' : 'no (' . array_sum($folded) . ' of ' . statq_weighted($busy) . ')');
printf("stacks as documented: %s\n", $folded === statq_expected_fold($samples) ? 'yes' : 'no');
printf("lines sorted: %s\n", array_keys($folded) === array_keys(statq_sorted($folded)) ? 'yes' : 'no');
$leaves = array_map(fn($stack) => substr(strrchr(";$stack", ';'), 1), array_keys($folded));
printf("hot_loop is a leaf: %s\n", in_array('hot_loop', $leaves, true) ? 'yes' : 'no');
if (isset($samples[0]['stack'])) {
    /* with stacks, the hot spot is under its callers */
    $under = array_filter(array_keys($folded), fn($s) => str_ends_with($s, 'Work::run;hot_loop'));
    printf("callers of hot_loop: %s\n", $under ? 'yes' : 'no');
} else {
    printf("callers of hot_loop: %s\n", 'yes');
}

[$code, $out] = statq_run(['fold', '--idle', '-f', $file]);
printf("--idle counts every sample: %s\n", array_sum(statq_parse_folded($out)) === statq_weighted($samples) ? 'yes' : 'no');

[$code, $out] = statq_run(['fold', '--group', 'pid', '-f', $file]);
$grouped = statq_parse_folded($out);
printf("--group pid: %s\n", $grouped === statq_expected_fold($samples, false, 'pid') && array_sum($grouped) === statq_weighted($busy) ? 'yes' : 'no');
[$code, $out] = statq_run(['fold', '--group', 'uri', '-f', $file]);
$roots = array_unique(array_map(fn($s) => explode(';', $s)[0], array_keys(statq_parse_folded($out))));
printf("--group uri (a CLI script: its path): %s\n", $roots === ['script ' . $samples[0]['request']['path']] ? 'yes' : 'no');

/* stdin: explicitly with -f -, and by default when stdin is not a terminal */
[$code, $out] = statq_run(['fold', '-f', '-'], file_get_contents($file));
printf("-f - reads stdin: %s\n", statq_parse_folded($out) === $folded ? 'yes' : 'no');
[$code, $out] = statq_run(['fold'], file_get_contents($file));
printf("stdin by default: %s\n", statq_parse_folded($out) === $folded ? 'yes' : 'no');

/* -o writes the same to a file, and nothing else is left in the directory */
$before = scandir(stat_test_dir());
[$code, $out] = statq_run(['fold', '-f', $file, '-o', stat_test_dir() . '/out.folded']);
printf("-o: exit %d, stdout empty: %s, same stacks: %s\n", $code, $out === '' ? 'yes' : 'no',
    statq_parse_folded(file_get_contents(stat_test_dir() . '/out.folded')) === $folded ? 'yes' : 'no');
var_dump(array_values(array_diff(scandir(stat_test_dir()), $before, ['out.folded'])));
?>
--EXPECT--
recorded: yes, invalid lines: 0
fold: exit 0, stderr empty: yes
counts sum to the samples: yes
stacks as documented: yes
lines sorted: yes
hot_loop is a leaf: yes
callers of hot_loop: yes
--idle counts every sample: yes
--group pid: yes
--group uri (a CLI script: its path): yes
-f - reads stdin: yes
stdin by default: yes
-o: exit 0, stdout empty: yes, same stacks: yes
array(0) {
}
