--TEST--
sampler: a sampler with a 10 s interval stops promptly at request end (the process exits in well under 5 s)
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$start = microtime(true);
/* stat.dump gives the child a reader: a process nothing can read from samples nothing on its own */
$child = new StatChild(['stat.interval' => '10000000', 'stat.dump' => '3'], <<<'PHP'
<?php
echo json_encode([stat\sampler\active(), stat\settings()['interval']]), "\n";
PHP, [3 => ['file', '/dev/null', 'w']]);
$code = $child->wait(10.0);
$took = microtime(true) - $start;
var_dump($code, $child->stdout(), $child->stderr());
printf("exited within 5 s: %s\n", $code !== null && $took < 5.0 ? 'yes' : sprintf('no (%.1f s)', $took));
?>
--EXPECT--
int(0)
string(16) "[true,10000000]
"
string(0) ""
exited within 5 s: yes
