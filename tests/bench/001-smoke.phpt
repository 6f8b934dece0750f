--TEST--
bench: bench/run --smoke runs every workload under every configuration and exits 0
--SKIPIF--
<?php if (!getenv('STAT_TEST_HEAVY')) die('skip set STAT_TEST_HEAVY'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
$root = dirname(__DIR__, 2);
$json = sys_get_temp_dir() . '/stat-bench-smoke-' . getmypid() . '.json';
$process = proc_open([getenv('TEST_PHP_EXECUTABLE'), '-n', "$root/bench/run", '--smoke', "--stat=$root/modules/stat.so", "--json=$json"],
	[0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$stdout = stream_get_contents($pipes[1]);
$stderr = stream_get_contents($pipes[2]);
$status = proc_close($process);
printf("exit status 0: %s\n", $status === 0 ? 'yes' : "no ($status)\n$stderr");

$data = json_decode((string) @file_get_contents($json), true);
@unlink($json);
$runs = [];
foreach ($data['results'] ?? [] as $run) {
	$runs[$run['workload']][$run['config']] = $run;
}
printf("workloads: %s\n", implode(',', array_keys($runs)));
printf("configurations of cpu: %d\n", count($runs['cpu'] ?? []));
$statProblems = [];
foreach ($runs as $workload => $configs) {
	foreach ($configs as $name => $run) {
		if (str_starts_with($name, 'stat-') && $name !== 'stat-idle' && (($run['received'] ?? 0) === 0 || ($run['invalid'] ?? 1) !== 0)) {
			$statProblems[] = "$workload $name";
		}
		if (($name === 'baseline' || str_starts_with($name, 'stat')) && $run['problems']) {
			$statProblems[] = "$workload $name: " . implode('; ', $run['problems']);
		}
	}
}
var_dump($statProblems);
printf("table printed: %s\n", str_contains($stdout, 'stat-10-s64') && str_contains($stdout, 'tideways') ? 'yes' : 'no');
?>
--EXPECT--
exit status 0: yes
workloads: cpu,calls,deep,deep10,alloc
configurations of cpu: 14
array(0) {
}
table printed: yes
