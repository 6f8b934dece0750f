--TEST--
sampler: a process with no stream, no control socket and no stat.dump (a CLI php loading stat from the shared ini) does not sample its requests automatically: nothing could read the samples; activate() still samples; phpinfo says why; with stat.dump it samples as before
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$script = <<<'PHP'
<?php
$auto = stat\sampler\active();
$start = microtime(true);
$x = '';
while (microtime(true) - $start < 0.2) { $x = md5($x); }
$before = stat\counters()['samples_written'];
ob_start();
phpinfo(INFO_MODULES);
preg_match('/auto \(live\) => (.*)/', ob_get_clean(), $m);
$activated = stat\sampler\activate();
/* busy until the sampler has written a few (a loaded machine may be slow to run it) */
$start = microtime(true);
while (stat\counters()['samples_written'] - $before < 5 && microtime(true) - $start < 20) { $x = md5($x); }
echo json_encode(['auto' => $auto, 'written before activate' => $before, 'phpinfo' => $m[1] ?? null,
    'activate' => $activated, 'written after' => stat\counters()['samples_written'] - $before >= 5]), "\n";
PHP;

$child = new StatChild(['stat.interval' => '1000'], $script);
var_dump($child->wait());
echo $child->stdout(), $child->stderr();

$child = new StatChild(['stat.interval' => '1000', 'stat.dump' => '3'], $script, [3 => ['file', '/dev/null', 'w']]);
var_dump($child->wait());
$result = json_decode($child->stdout(), true);
printf("with stat.dump: auto %s, samples before activate: %s, activate %s\n", var_export($result['auto'] ?? null, true),
    ($result['written before activate'] ?? 0) > 0 ? 'yes' : 'no', var_export($result['activate'] ?? null, true));
?>
--EXPECT--
int(0)
{"auto":false,"written before activate":0,"phpinfo":"On, but not in this process: no stream, control socket or dump reads it","activate":true,"written after":true}
int(0)
with stat.dump: auto true, samples before activate: yes, activate false
