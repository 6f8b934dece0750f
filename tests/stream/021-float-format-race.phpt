--TEST--
stream: formatting sample times on the listener (a thread when this was found, a process now) does not corrupt PHP's float formatting (zend_dtoa is not thread-safe)
--DESCRIPTION--
Found by bench/run: src/listener/sample.c includes php.h, which defines snprintf as ap_php_snprintf; its "%.6f"
goes through zend_dtoa, whose Bigint freelist is shared and unlocked in NTS builds. The listener, then a thread,
formatting "elapsed" while the PHP thread formats floats corrupts the heap (double free in
zend_shutdown_strtod, segfaults) and PHP's own float results. Using libc's snprintf there fixes it.
--INI--
memory_limit=1024M
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '10'], <<<'PHP'
<?php
echo "ready\n";
fgets(STDIN);
$bad = $n = 0;
$deadline = microtime(true) + 1.5;
while (microtime(true) < $deadline) {
	for ($i = 0; $i < 1000; $i++, $n++) {
		$x = $i / 7;
		if ((float) sprintf('%.6f', $x) !== round($x, 6) || json_encode($x) !== var_export($x, true)) {
			$bad++;
		}
	}
}
echo "formatted: ", $n > 0 ? 'yes' : 'no', "\nwrong: $bad\n";
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll());
var_dump($child->wait());
echo substr($child->stdout(), strlen("ready\n"));
var_dump($child->stderr());
var_dump($stream->invalid);
printf("samples: %s\n", count($stream->samples) > 100 ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
formatted: yes
wrong: 0
string(0) ""
array(0) {
}
samples: yes
