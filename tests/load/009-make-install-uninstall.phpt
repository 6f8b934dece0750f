--TEST--
load: make install's statq part puts statq in /usr/local/bin (PREFIX or STATQ_PREFIX moves it), never /usr/bin; make uninstall's removes it (into a staging root, INSTALL_ROOT; the stat.so part is phpize's own, and would replace the library this very test runs with)
--SKIPIF--
<?php
require __DIR__ . '/load.inc';
if (!preg_match('/zend_extension=("[^"]*"|\'[^\']*\'|\S+)/', (string) getenv('TEST_PHP_EXTRA_ARGS'), $m) ||
    !is_file(dirname(trim($m[1], '"\''), 2) . '/Makefile')) die('skip needs the build directory of the stat.so under test');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/load.inc';

preg_match('/zend_extension=("[^"]*"|\'[^\']*\'|\S+)/', (string) getenv('TEST_PHP_EXTRA_ARGS'), $m);
$build = dirname(realpath(trim($m[1], '"\'')), 2);
$root = stat_test_dir() . '/root';

function files(string $root): array
{
    $found = [];
    if (!is_dir($root)) {
        return $found;
    }
    $it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($root, FilesystemIterator::SKIP_DOTS));
    foreach ($it as $file) {
        $found[] = substr($file->getPathname(), strlen($root));
    }
    sort($found);
    return $found;
}

foreach ([[], ['STATQ_PREFIX=/opt/stat'], ['PREFIX=/opt/other']] as $args) {
    $make = 'make -s -C ' . escapeshellarg($build) . ' INSTALL_ROOT=' . escapeshellarg($root) . ' ' . implode(' ', $args);
    exec("$make install-statq 2>&1", $out, $code);
    $installed = files($root);
    $label = $args ? implode(' ', $args) : 'default';
    printf("%s: install exit %d\n", $label, $code);
    printf("  nothing in /usr/bin: %s\n", preg_grep('#^/usr/bin/#', $installed) ? 'no' : 'yes');
    $statq = array_values(preg_grep('#/statq$#', $installed));
    echo "  statq: ", implode(' ', $statq), "\n";
    exec("$make uninstall-statq 2>&1", $out, $code);
    $left = array_values(array_filter(files($root), fn($f) => !is_dir($root . $f)));
    printf("  uninstall exit %d, files left: [%s]\n", $code, implode(' ', $left));
}
?>
--EXPECT--
default: install exit 0
  nothing in /usr/bin: yes
  statq: /usr/local/bin/statq
  uninstall exit 0, files left: []
STATQ_PREFIX=/opt/stat: install exit 0
  nothing in /usr/bin: yes
  statq: /opt/stat/bin/statq
  uninstall exit 0, files left: []
PREFIX=/opt/other: install exit 0
  nothing in /usr/bin: yes
  statq: /opt/other/bin/statq
  uninstall exit 0, files left: []
