--TEST--
package: small units: no function over 100 lines and no file over 800 in src/ and tools/statq/ (and their folders), but for the listed ones (none now; each at most its size when listed: the list only shrinks), and a new long function or file is found and named
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

const STAT_FUNCTION_LINES = 100;
const STAT_FILE_LINES = 800;
/* the long ones there still are (#27): name => their lines at most (none now) */
const STAT_LONG = [];

/*
 * [name => lines] of the functions and files of $root's src/ (its
 * folders) and tools/statq/ (its top and its folders) over the limits. A
 * function, as php-src writes one: its name on a line that starts at the
 * margin, its body from a "{" alone on a line to the next "}" alone on a
 * line.
 */
function stat_long_units(string $root): array
{
    $long = [];
    foreach (array_merge(glob("$root/src/*/*.[ch]"), glob("$root/tools/statq/*.[ch]"), glob("$root/tools/statq/*/*.[ch]")) as $path) {
        $lines = file($path);
        if (count($lines) > STAT_FILE_LINES) {
            $long[substr($path, strlen($root) + 1)] = count($lines);
        }
        $name = null;
        foreach ($lines as $i => $line) {
            if ($line === "{\n") {
                for ($k = $i - 1; $k >= max(0, $i - 4); $k--) {
                    if (preg_match('/^[a-zA-Z_].*?\b(\w+)\(/', $lines[$k], $m)) {
                        [$name, $start] = [$m[1], $i];
                        break;
                    }
                }
            } elseif ($line === "}\n" && $name !== null) {
                if ($i - $start + 1 > STAT_FUNCTION_LINES) {
                    $long[$name] = $i - $start + 1;
                }
                $name = null;
            }
        }
    }
    return $long;
}

/* What is wrong with $long against STAT_LONG: one line each. */
function stat_long_report(array $long): array
{
    $said = [];
    foreach ($long as $name => $lines) {
        if (!isset(STAT_LONG[$name])) {
            $said[] = "$name: $lines lines, over the limit (split it)";
        } elseif ($lines > STAT_LONG[$name]) {
            $said[] = "$name: $lines lines, longer than the " . STAT_LONG[$name] . " it had (split it)";
        }
    }
    foreach (STAT_LONG as $name => $lines) {
        if (!isset($long[$name])) {
            $said[] = "$name: within the limit now: take it off the list";
        }
    }
    return $said;
}

$root = dirname(__DIR__, 2);
$said = stat_long_report(stat_long_units($root));
echo $said === [] ? "sizes: as listed (" . count(STAT_LONG) . " still long)\n" : implode("\n", $said) . "\n";

/* a copy with one more long function */
$copy = stat_test_dir();
foreach (array_merge(glob("$root/src/*/*.[ch]"), glob("$root/tools/statq/*.[ch]"), glob("$root/tools/statq/*/*.[ch]")) as $path) {
    $to = $copy . substr($path, strlen($root));
    is_dir(dirname($to)) || mkdir(dirname($to), 0777, true);
    copy($path, $to);
}
file_put_contents("$copy/tools/statq/statq.c", "\nstatic void statq_too_long(void)\n{\n" . str_repeat("\t(void) 0;\n", 120) . "}\n", FILE_APPEND);
echo "with one more: ", implode("\n", stat_long_report(stat_long_units($copy))), "\n";
?>
--EXPECT--
sizes: as listed (0 still long)
with one more: statq_too_long: 122 lines, over the limit (split it)
