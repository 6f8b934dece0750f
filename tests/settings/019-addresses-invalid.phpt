--TEST--
settings: socket addresses that cannot work (a port above 65535, no port, an empty unix path, a 100 KB path) give one warning each, naming the setting, the value (cut when long) and the value used (0); the script runs, stat\settings() shows no socket
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$long = 'unix://' . stat_test_dir() . '/' . str_repeat('p', 100 * 1024) . '.sock';
$cases = [
    ['stat.stream', 'tcp://127.0.0.1:99999', 'port must be a number from 0 to 65535'],
    ['stat.control', 'tcp://127.0.0.1:65536', 'port must be a number from 0 to 65535'],
    ['stat.stream', 'tcp://[::1]:99999', 'port must be a number from 0 to 65535'],
    ['stat.control', 'tcp://127.0.0.1:-1', 'port must be a number from 0 to 65535'],
    ['stat.stream', 'tcp://127.0.0.1', 'needs a port'],
    ['stat.stream', 'tcp://:8010', 'needs a host'],
    ['stat.stream', 'unix://', 'path is empty'],
    ['stat.control', 'unix://', 'path is empty'],
    ['stat.stream', $long, 'longer than the 107'],
    ['stat.control', $long, 'longer than the 107'],
];
foreach ($cases as [$name, $value, $reason]) {
    [$code, $stdout, $warnings, $rest] = stat_settings_child([$name => $value]);
    $warning = $warnings[0] ?? '';
    $shown = strlen($value) > 512 ? substr($value, 0, 512) . '... (' . strlen($value) . ' bytes)' : $value;
    $lines = explode("\n", $stdout);
    $settings = json_decode($lines[1] ?? 'null', true);
    $key = $name === 'stat.stream' ? 'stream' : 'control';
    $facts = [
        'exit 0' => $code === 0,
        'one warning' => count($warnings) === 1,
        'names the setting' => str_starts_with($warning, "Warning: $name: "),
        'says why' => str_contains($warning, $reason),
        'shows the value' => str_contains($warning, "'$shown'"),
        'says what it uses' => str_contains($warning, '; using 0 (the socket is disabled)'),
        'one line of at most 1024 bytes' => strlen($warning) < 1100,
        'nothing else on stderr' => $rest === [],
        'script ran' => $lines[0] === 'ran',
        'no socket' => is_array($settings) && $settings[$key] === '' && $settings['listener']['state'] === 'off',
    ];
    $failed = array_keys(array_filter($facts, fn($ok) => !$ok));
    printf("%s=%s: %s\n", $name, strlen($value) > 1000 ? 'unix://<100 KB path>' : $value, $failed ? 'not: ' . implode(', ', $failed) . " ($warning)" : 'ok');
}
?>
--EXPECT--
stat.stream=tcp://127.0.0.1:99999: ok
stat.control=tcp://127.0.0.1:65536: ok
stat.stream=tcp://[::1]:99999: ok
stat.control=tcp://127.0.0.1:-1: ok
stat.stream=tcp://127.0.0.1: ok
stat.stream=tcp://:8010: ok
stat.stream=unix://: ok
stat.control=unix://: ok
stat.stream=unix://<100 KB path>: ok
stat.control=unix://<100 KB path>: ok
