--TEST--
package: no call loop among statq's files (from their objects' symbols, nm: a file calls another when it uses a symbol the other defines); each file is above every file it calls, main.c on top, statq.c (the helpers) at the bottom, the files of every folder (input/, profile/, formats/, fleet/) among them; a loop put back (statq.c calling main.c's) is found and named with the symbol that makes it
--SKIPIF--
<?php
exec('command -v nm', $out, $status);
if ($status !== 0) die('skip nm (binutils) is missing');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';
require __DIR__ . '/graph.inc';

$dir = dirname(__DIR__, 2) . '/tools/statq';
exec('make -s -C ' . escapeshellarg($dir) . ' 2>&1', $out, $status);
if ($status !== 0) {
    die("statq does not build:\n" . implode("\n", $out) . "\n");
}

/*
 * [file.c => [file.c it calls => the first symbol it uses from there]], from
 * nm of each object, the files named by their path in tools/statq (main.c,
 * input/reader.c: statq is in folders by what each part does, README.md); an
 * object whose source is gone (left from an older layout) is not statq's
 */
function statq_calls(string $dir): array
{
    $defined = [];
    $used = [];
    foreach (array_merge(glob("$dir/*.o"), glob("$dir/*/*.o")) as $object) {
        $source = substr($object, strlen($dir) + 1, -2) . '.c';
        if (!is_file("$dir/$source")) {
            continue;
        }
        $used[$source] = [];
        exec('nm ' . escapeshellarg($object), $lines);
        foreach ($lines as $line) {
            if (preg_match('/^[0-9a-f]+ [TDBR] (\S+)$/', $line, $m)) {
                $defined[$m[1]] = $source;
            } elseif (preg_match('/^\s+U (\S+)$/', $line, $m)) {
                $used[$source][] = $m[1];
            }
        }
        $lines = [];
    }
    $graph = [];
    foreach ($used as $source => $symbols) {
        $graph[$source] = [];
        sort($symbols);
        foreach ($symbols as $symbol) {
            $to = $defined[$symbol] ?? null;
            if ($to !== null && $to !== $source) {
                $graph[$source][$to] ??= $symbol;
            }
        }
    }
    ksort($graph);
    return $graph;
}

$graph = statq_calls($dir);
$folders = array_values(array_unique(array_map(fn($source) => dirname($source), array_keys($graph))));
sort($folders);
printf("objects: %s, in %s\n", count($graph) >= 20 ? 'all' : 'only ' . count($graph), implode(' ', $folders));
$cycle = stat_graph_cycle($graph);
echo 'tools/statq: ', $cycle === null ? 'no call loop' : 'LOOP ' . stat_cycle_text($graph, $cycle), "\n";
printf("main.c calls commands.c: %s; nothing calls main.c: %s; statq.c calls none of statq: %s\n",
    isset($graph['main.c']['commands.c']) ? 'yes' : 'no',
    array_filter($graph, fn($to) => isset($to['main.c'])) === [] ? 'yes' : 'no',
    ($graph['statq.c'] ?? null) === [] ? 'yes' : 'no');

/* a loop put back: the helpers calling the dispatch */
$graph['statq.c']['main.c'] = 'main';
$cycle = stat_graph_cycle($graph);
echo 'with statq.c calling main.c: ', $cycle === null ? 'no loop found' : stat_cycle_text($graph, $cycle), "\n";
?>
--EXPECTF--
objects: all, in . fleet formats input profile
tools/statq: no call loop
main.c calls commands.c: yes; nothing calls main.c: yes; statq.c calls none of statq: yes
with statq.c calling main.c: %s -> (main) main.c -> %s
