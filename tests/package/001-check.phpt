--TEST--
package: scripts/package-check passes on the checkout, and fails naming the fix when git tracks a file package.xml does not list, when package.xml lists a file that is gone, and when one place has another version; a release that bumps every place passes
--SKIPIF--
<?php
$root = dirname(__DIR__, 2);
if (!is_dir("$root/.git") && !is_file("$root/.git")) die('skip not a git checkout (a copy of the sources without .git)');
foreach (['git', 'xmllint'] as $tool) {
    exec('command -v ' . $tool, $out, $status);
    if ($status !== 0) die("skip needs $tool");
}
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

$root = dirname(__DIR__, 2);
$copy = stat_test_dir() . '/checkout';

/* run a command in the copy: [exit code, output] */
function run(string $command): array
{
    global $copy;
    exec('cd ' . escapeshellarg($copy) . ' && ' . $command . ' 2>&1', $out, $status);
    return [$status, $out];
}
/* package-check's own findings (where pecl is installed, its validation repeats a missing file in words of its own) */
function fails(array $out): array
{
    return array_values(array_filter($out, fn ($line) => (str_starts_with($line, 'FAIL') && !str_starts_with($line, 'FAIL: pecl package-validate'))
        || str_starts_with($line, '   <file')));
}
function edit(string $file, string $from, string $to): void
{
    global $copy;
    $text = file_get_contents("$copy/$file");
    $new = str_replace($from, $to, $text, $count);
    if ($count === 0) {
        throw new Exception("$file has no '$from'");
    }
    file_put_contents("$copy/$file", $new);
}

/* the files git tracks (as committed or staged), in a repository of their own */
exec('git -C ' . escapeshellarg($root) . ' ls-files -z', $lines, $status);
mkdir($copy);
foreach (array_filter(explode("\0", implode("\n", $lines))) as $file) {
    @mkdir(dirname("$copy/$file"), 0755, true);
    copy("$root/$file", "$copy/$file");
}
chmod("$copy/scripts/package-check", 0755);
run('git init -q && git add -A');

[$status, $out] = run('scripts/package-check');
echo "checkout: exit $status, ", end($out) !== false && preg_match('/^\d+ passed, 0 failed, \d+ skipped$/', end($out)) ? 'nothing failed' : implode("\n", $out), "\n";

file_put_contents("$copy/src/shared/extra.c", "/* extra.c: a new source file */\n");
[$status, $out] = run('git add src/shared/extra.c && scripts/package-check');
echo "a new file: exit $status\n", implode("\n", fails($out)), "\n";
run('git rm -q -f src/shared/extra.c');

$gone = 'tests/strings/' . basename(glob("$copy/tests/strings/*.phpt")[0]);
run("git rm -q -f $gone");
[$status, $out] = run('scripts/package-check');
echo "a listed file removed: exit $status\n", preg_replace('/tests\/strings\/\S+/', 'tests/strings/…', implode("\n", fails($out))), "\n";
copy("$root/$gone", "$copy/$gone");
run("git add $gone");

edit('php_stat.h', '"1.0.0"', '"1.0.1"');
[$status, $out] = run('scripts/package-check');
echo "php_stat.h alone says 1.0.1: exit $status\n", implode("\n", fails($out)), "\n";

edit('tools/statq/statq.h', '"1.0.0"', '"1.0.1"');
edit('debian/changelog', 'php-stat (1.0.0-1)', "php-stat (1.0.1-1) unstable; urgency=medium\n\n  * 1.0.1\n\n -- the stat developers <maintainers@stat.invalid>  Thu, 26 Nov 2026 00:00:00 +0000\n\nphp-stat (1.0.0-1)");
edit('package.xml', '<release>1.0.0</release>', '<release>1.0.1</release>');
edit('package.xml', '<date>2026-11-25</date>', '<date>2026-11-26</date>');
edit('CHANGELOG.md', '## 1.0.0 (2026-11-25)', "## 1.0.1 (2026-11-26)\n\n- A fix.\n\n## 1.0.0 (2026-11-25)");
[$status, $out] = run('scripts/package-check');
echo "every place says 1.0.1: exit $status, ", preg_match('/^\d+ passed, 0 failed, \d+ skipped$/', end($out)) ? 'nothing failed' : implode("\n", $out), "\n";
?>
--EXPECT--
checkout: exit 0, nothing failed
a new file: exit 1
FAIL: git tracks files package.xml does not list (add them to its <contents>, or to $unreleased in scripts/package-check if no release needs them):
   <file name="src/shared/extra.c" role="src"/>
a listed file removed: exit 1
FAIL: package.xml lists files that do not exist: tests/strings/…
FAIL: package.xml lists files git does not track: tests/strings/…
php_stat.h alone says 1.0.1: exit 1
FAIL: statq's STATQ_VERSION (tools/statq/statq.h) is '1.0.0', php_stat.h's PHP_STAT_VERSION is 1.0.1: make them agree
FAIL: debian/changelog's upstream version is '1.0.0', php_stat.h's PHP_STAT_VERSION is 1.0.1: make them agree
FAIL: package.xml's <release> is '1.0.0', php_stat.h's PHP_STAT_VERSION is 1.0.1: make them agree
FAIL: CHANGELOG.md's top entry is '1.0.0', php_stat.h's PHP_STAT_VERSION is 1.0.1: make them agree
every place says 1.0.1: exit 0, nothing failed
