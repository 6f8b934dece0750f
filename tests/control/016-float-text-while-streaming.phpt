--TEST--
control: PHP turning floats into text while the stream encodes samples does not corrupt the heap
--INI--
memory_limit=1024M
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

/* The listener (a thread when this was found, a process now) writes "elapsed" with PHP's snprintf (php.h makes snprintf
 * ap_php_snprintf): "%.6f" goes through zend_dtoa, whose Bigint freelist has no lock in
 * NTS builds. PHP's thread uses the same freelist for printf("%f"), json_encode() of a
 * float, (string) $float. Every worker test in this directory turns floats into text
 * while streaming; this one does it on purpose, for 1.5 s. */
$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => "unix://$dir/control.sock",
    'stat.interval' => '10'], <<<'PHP'
<?php
echo "ready\n";
fgets(STDIN);
$end = microtime(true) + 1.5;
$n = 0;
while (microtime(true) < $end) {
    $n += strlen(sprintf('%.6f', $n / 7) . json_encode(['x' => $n / 3]) . (string) ($n / 11));
}
echo "done\n";
PHP);
var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll());
$code = $child->wait();
printf("exit code: %s\n", $code === 0 ? '0' : var_export($code, true));
printf("finished: %s\n", str_ends_with($child->stdout(), "done\n") ? 'yes' : 'no');
printf("samples streamed meanwhile: %s\n", count($stream->samples) > 100 ? 'yes' : 'no (' . count($stream->samples) . ')');
var_dump($stream->invalid, $child->stderr());
?>
--EXPECT--
bool(true)
bool(true)
exit code: 0
finished: yes
samples streamed meanwhile: yes
array(0) {
}
string(0) ""
