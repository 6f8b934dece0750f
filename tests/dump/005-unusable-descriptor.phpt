--TEST--
dump: stat.dump naming a descriptor that is not open, or open read-only, gets a startup warning saying so; a full one (/dev/full) a line in the log at exit; PHP runs and exits 0 every time
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/dump.inc';

$script = "<?php\n\$t = microtime(true); while (stat\\counters()['samples_written'] < 50 && microtime(true) - \$t < 10) { md5('x'); }\necho \"ran\\n\";\n";
/* 987: no descriptor a test's process inherits is that high (run-tests -j2 leaves low ones open) */
foreach (['not open' => [987, []], 'read-only' => [3, [3 => ['file', '/dev/null', 'r']]], 'full' => [3, [3 => ['file', '/dev/full', 'w']]]] as $label => [$fd, $fds]) {
    $child = new StatChild(['stat.dump' => (string) $fd, 'stat.interval' => '100'], $script, $fds);
    $code = $child->wait();
    $stderr = preg_replace('/ in Unknown on line \d+/', '', trim($child->stderr()));
    printf("%s: exit %s, ran %s\n  %s\n", $label, var_export($code, true), trim($child->stdout()) === 'ran' ? 'yes' : 'no',
        preg_replace('/\d+ samples/', 'N samples', str_replace("\n", ' | ', $stderr)));
}
?>
--EXPECTF--
not open: exit 0, ran yes
  %AWarning: stat.dump: file descriptor 987 is not open (Bad file descriptor); the ring will not be written at exit
read-only: exit 0, ran yes
  %AWarning: stat.dump: file descriptor 3 is open for reading only; the ring will not be written at exit
full: exit 0, ran yes
  stat.dump: writing to file descriptor 3 failed (No space left on device); N samples not written
