--TEST--
strings: a string read for a function seen for the first time costs one read (its header and bytes together, vouched for by its hash), not two: a loop over 3,000 functions each sampled once takes at most 2.4 reads more a new function (its name, and its file's, which the names push out of the string cache) than a loop over one function
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

/*
 * Two phases in one request at 1 ms (request mode), each until 300 samples
 * are written: one function called again and again (its name read once,
 * then cached: the reads of a sample), then 3,000 functions of one file
 * called in turn, each for a little over a millisecond (about one new name
 * a sample: the reads of a sample and of a name seen for the first time;
 * the file's name is read once). The reads the second phase takes more a
 * sample, over its name cache misses a sample, are the reads of a name.
 */
$dir = stat_test_dir();
$source = "<?php\n";
for ($k = 0; $k < 3000; $k++) {
    $source .= sprintf("function name_%04d(int \$x): int { for (\$i = 0; \$i < 300; \$i++) { \$x = (\$x * 31 + \$i) %% 1000003; } return \$x; }\n", $k);
}
file_put_contents("$dir/names.php", $source);

/* stat.dump gives the child a reader: a process nothing can read from samples nothing on its own */
$child = new StatChild(['stat.interval' => '1000', 'stat.dump' => '3'], <<<PHP
<?php
require '$dir/names.php';
function phase(callable \$next): array {
    \$before = stat\\counters();
    \$stop = microtime(true) + 10;
    \$x = 1;
    while (stat\\counters()['samples_written'] - \$before['samples_written'] < 300 && microtime(true) < \$stop) {
        \$f = \$next();
        for (\$j = 0; \$j < 60; \$j++) { \$x = \$f(\$x); }
    }
    \$after = stat\\counters();
    return ['reads' => \$after['reads'] - \$before['reads'], 'samples' => \$after['samples_written'] - \$before['samples_written'],
        'misses' => \$after['cache_misses'] - \$before['cache_misses']];
}
/* both phases pick the next function alike: only the names differ */
\$k = 0;
\$pick = function (bool \$many) use (&\$k) { return sprintf('name_%04d', \$many ? 1 + \$k++ % 2999 : 0); };
/* (warm: the loop's own functions named) */
phase(fn() => \$pick(false));
\$one = phase(fn() => \$pick(false));
\$many = phase(fn() => \$pick(true));
echo json_encode(['one' => \$one, 'many' => \$many]), "\\n";
PHP, [3 => ['file', '/dev/null', 'w']]);

var_dump($child->wait(), $child->stderr());
$d = json_decode($child->stdout(), true);
$per = fn(array $p) => $p['samples'] ? $p['reads'] / $p['samples'] : INF;
printf("enough samples: %s\n", $d['one']['samples'] >= 250 && $d['many']['samples'] >= 250 ? 'yes' : 'no (' . $child->stdout() . ')');
$missRate = $d['many']['samples'] ? $d['many']['misses'] / $d['many']['samples'] : 0;
printf("most samples of the second phase meet a new name: %s\n", $missRate >= 0.5 ? 'yes' : sprintf('no (%.2f: %s)', $missRate, $child->stdout()));
$perName = $missRate > 0 ? ($per($d['many']) - $per($d['one'])) / $missRate : INF;
printf("reads a new function's names take, at most 2.4: %s\n", $perName <= 2.4 ? 'yes' : sprintf('no (%.2f: %s)', $perName, $child->stdout()));
?>
--EXPECT--
int(0)
string(0) ""
enough samples: yes
most samples of the second phase meet a new name: yes
reads a new function's names take, at most 2.4: yes
