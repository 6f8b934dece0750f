--TEST--
sampler: deactivate() of a sampler with a 10 s interval returns promptly, and activate() works again after it
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$start = microtime(true);
$child = new StatChild(['stat.interval' => '10000000', 'stat.auto' => '0'], <<<'PHP'
<?php
$result = [];
for ($round = 0; $round < 3; $round++) {
    $result[] = stat\sampler\activate();
    $t = microtime(true);
    $result[] = stat\sampler\deactivate();
    $result[] = microtime(true) - $t < 2.0;
}
echo json_encode($result), "\n";
PHP);
$code = $child->wait(20.0);
$took = microtime(true) - $start;
var_dump($code, $child->stdout(), $child->stderr());
printf("exited within 5 s: %s\n", $code !== null && $took < 5.0 ? 'yes' : sprintf('no (%.1f s)', $took));
?>
--EXPECT--
int(0)
string(47) "[true,true,true,true,true,true,true,true,true]
"
string(0) ""
exited within 5 s: yes
