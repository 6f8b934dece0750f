--TEST--
package: no include cycle among src/'s modules (a .c and its .h; frame_*.c and frame_*.h, which share frame_internal.h, are one): each is above every module it includes, from the shared data up to the listener; nor among statq's, at its top and in its folders (aggregate_*.c share aggregate_internal.h); a cycle put back is found and named with the includes that make it
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';
require __DIR__ . '/graph.inc';

/*
 * The modules of $dir (src/ or tools/statq/: the files at its top and in
 * its folders) and who includes whom: a module is a .c and its .h of the
 * same name; a module with a private header (X_internal.h) is split across
 * files X_*.c and X_*.h, all of them the module X. An include names a header
 * of its own folder ("ring.h") or of another by its path ("../shared/ring.h",
 * "../statq.h", from statq's top "input/input.h"); a header outside $dir
 * (statq's "../../src/common/control_codes.h") is not one of its modules.
 * Returns [module => [module it includes => "folder/file: line"]].
 */
function stat_modules(string $dir): array
{
    $files = array_merge(glob("$dir/*.[ch]"), glob("$dir/*/*.[ch]"));
    $split = [];
    foreach ($files as $file) {
        if (preg_match('/^(.+)_internal\.h$/', basename($file), $m)) {
            $split[] = $m[1];
        }
    }
    $module = function (string $name) use ($split): string {
        $stem = preg_replace('/\.[ch]$/', '', basename($name));
        foreach ($split as $prefix) {
            if (str_starts_with($stem, $prefix . '_')) {
                return $prefix;
            }
        }
        return $stem;
    };
    $graph = [];
    foreach ($files as $file) {
        $from = $module($file);
        $where = substr($file, strlen($dir) + 1);
        $graph[$from] ??= [];
        foreach (file($file) as $n => $line) {
            if (preg_match('/^\s*#\s*include\s+"((?:\.\.\/)*(?:[a-z_]+\/)*[^"\/]+\.h)"/', $line, $m)
                && ($header = realpath(dirname($file) . "/$m[1]")) !== false && str_starts_with($header, realpath($dir) . '/')) {
                $to = $module($m[1]);
                if ($to !== $from) {
                    $graph[$from][$to] ??= "$where:" . ($n + 1);
                }
            }
        }
    }
    ksort($graph);
    return $graph;
}

/* Layers: each module above every module it includes (0: includes none). */
function stat_layers(array $graph): array
{
    $layer = [];
    $depth = function (string $node) use (&$depth, &$layer, $graph): int {
        if (!isset($layer[$node])) {
            $layer[$node] = 0;
            foreach (array_keys($graph[$node] ?? []) as $next) {
                $layer[$node] = max($layer[$node], $depth($next) + 1);
            }
        }
        return $layer[$node];
    };
    foreach (array_keys($graph) as $node) {
        $depth($node);
    }
    return $layer;
}
$src = dirname(__DIR__, 2) . '/src';
$graph = stat_modules($src);
$cycle = stat_graph_cycle($graph);
echo 'src/: ', $cycle === null ? 'no include cycle' : 'CYCLE ' . stat_cycle_text($graph, $cycle), "\n";
if ($cycle === null) {
    $layers = stat_layers($graph);
    /* the layering TECHNOTES.md describes: shared data below the producer and encoder, the servers on top */
    foreach ([['memory', 'frame'], ['ring', 'sampler'], ['strings', 'sample'], ['requests', 'sample'], ['sample', 'frame'], ['frame', 'sampler'],
        ['sample', 'stream'], ['stream', 'listener'], ['control', 'listener'], ['settings', 'control'], ['socket', 'listener'], ['address', 'settings']] as [$low, $high]) {
        if (($layers[$low] ?? -1) >= ($layers[$high] ?? -1)) {
            echo "$low is not below $high\n";
        }
    }
}

/* statq (tools/statq/, in folders by what each part does): its modules by the same rule */
$statq = stat_modules(dirname(__DIR__, 2) . '/tools/statq');
$cycle = stat_graph_cycle($statq);
$folders = [];
foreach ($statq as $edges) {
    foreach ($edges as $where) {
        $folders[dirname($where)] = true;
    }
}
ksort($folders);
echo 'tools/statq/: ', $cycle === null ? 'no include cycle' : 'CYCLE ' . stat_cycle_text($statq, $cycle),
    ' (', count($statq) >= 20 ? 'all' : 'only ' . count($statq), ' modules, includes in ', implode(' ', array_keys($folders)), ")\n";

/* a copy with one include that closes a circle (the memory -> sample -> strings -> memory of before) */
$copy = stat_test_dir() . '/src';
mkdir($copy);
foreach (array_merge(glob("$src/*/*.c"), glob("$src/*/*.h")) as $file) {
    $to = "$copy/" . basename(dirname($file)) . '/' . basename($file);
    is_dir(dirname($to)) || mkdir(dirname($to));
    copy($file, $to);
}
file_put_contents("$copy/shared/memory.h", str_replace('#include "atomic.h"', "#include \"atomic.h\"\n#include \"../listener/sample.h\"", file_get_contents("$copy/shared/memory.h")));
$graph = stat_modules($copy);
$cycle = stat_graph_cycle($graph);
echo 'with memory.h including sample.h: ', $cycle === null ? 'no cycle found' : stat_cycle_text($graph, $cycle), "\n";
?>
--EXPECTF--
src/: no include cycle
tools/statq/: no include cycle (all modules, includes in . fleet formats input profile)
with memory.h including sample.h: %s -> (shared/memory.h:%d) sample -> %s
