--TEST--
sampler: requests shorter than the interval are sampled in proportion to their length (the first tick falls at a random point of the first interval), on both clocks; 2,000 windows of 0.3 ms at a 1 ms interval give about 600 samples, not none
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$script = <<<'PHP'
<?php
/* 2,000 "requests" of 0.3 ms of CPU each, sampled one by one as a request would be */
function short() { $t = hrtime(true); $x = 0; while (hrtime(true) - $t < 300000) { $x++; } return $x; }
$busy = 0;
$before = stat\counters();
for ($i = 0; $i < 2000; $i++) {
    stat\sampler\activate();
    $t = hrtime(true);
    short();
    $busy += hrtime(true) - $t;
    stat\sampler\deactivate();
}
$after = stat\counters();
$taken = ($after['samples_written'] - $before['samples_written']) + ($after['samples_failed'] - $before['samples_failed']);
echo json_encode(['taken' => $taken, 'expected' => $busy / 1e6 / (stat\settings()['interval'] / 1000)]), "\n";
PHP;

foreach (['wall', 'cpu'] as $clock) {
    $child = new StatChild(['stat.auto' => '0', 'stat.interval' => '1000', 'stat.clock' => $clock, 'stat.dump' => '3'], $script,
        [3 => ['file', '/dev/null', 'w']]);
    $code = $child->wait(120);
    $result = json_decode($child->stdout(), true);
    $ratio = ($result['taken'] ?? 0) / max(1, $result['expected'] ?? 0);
    /* a loaded machine may run the sampler thread after a window has closed: fewer, never none; never more than twice */
    printf("%s: exit %s, sampled in proportion: %s\n", $clock, var_export($code, true),
        $ratio >= 0.25 && $ratio <= 2.0 ? 'yes' : sprintf('no (%d samples, %.0f expected)', $result['taken'] ?? 0, $result['expected'] ?? 0));
    echo $child->stderr();
}
?>
--EXPECT--
wall: exit 0, sampled in proportion: yes
cpu: exit 0, sampled in proportion: yes
