--TEST--
client: statq --help and each command's --help document the options; unknown commands and options are usage errors
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

[$code, $out, $err] = statq_run(['--help']);
printf("--help: exit %d, lists commands: %s, stderr empty: %s\n", $code,
    preg_match_all('/^  (top|fold|flame|speedscope|record|ctl|status) /m', $out) === 7 ? 'yes' : 'no', $err === '' ? 'yes' : 'no');

$expect = [
    'top' => ['--source', '--file', '--seconds', '--samples', '--pid', '--uri', '--script', '--once', '--refresh', '--rows', '--sort', '--idle',
        '--backlog', '--follow', '--retry'],
    'fold' => ['--source', '--file', '--output', '--group', 'path|script|uri|pid', '--idle', '--seconds', '--samples', '--backlog', '--follow', '.gz'],
    'flame' => ['--source', '--file', '--output', '--group', 'path|script|uri|pid', '--title'],
    'speedscope' => ['--source', '--file', '--output', '--weights', '--merge'],
    'record' => ['--source', '--file', '--output', '--seconds', '--samples', '--backlog', '--follow', '--retry', '.gz'],
    'ctl' => ['--control', 'interval', 'auto', 'samplers', 'arginfo', 'stack', 'clock', 'applied', 'no reply'],
    'status' => ['--source', '--json', 'settings', 'counters'],
];
foreach ($expect as $command => $words) {
    [$code, $out, $err] = statq_run([$command, '--help']);
    $missing = array_values(array_filter($words, fn($w) => strpos($out, $w) === false));
    printf("%s --help: exit %d, usage line: %s, missing: %s\n", $command, $code,
        str_starts_with($out, "usage: statq $command") ? 'yes' : 'no', $missing ? implode(',', $missing) : 'none');
}

[$code, $out, $err] = statq_run(['frobnicate']);
printf("unknown command: exit %d, says so: %s\n", $code, strpos($err, "unknown command 'frobnicate'") !== false ? 'yes' : 'no');
[$code, $out, $err] = statq_run(['fold', '--bogus']);
printf("unknown option: exit %d, says so: %s\n", $code, strpos($err, 'unknown option --bogus') !== false ? 'yes' : 'no');
[$code, $out, $err] = statq_run(['top', '--seconds', 'soon']);
printf("bad value: exit %d, says so: %s\n", $code, strpos($err, "--seconds must be a number of seconds greater than 0, 'soon' given") !== false ? 'yes' : 'no');
[$code, $out, $err] = statq_run(['fold', '--uri', '(']);
printf("bad regex: exit %d, says so: %s\n", $code, strpos($err, '--uri: invalid regular expression') !== false ? 'yes' : 'no');
[$code, $out, $err] = statq_run(['fold', '-s', 'x', '-f', 'y']);
printf("two sources: exit %d\n", $code);
[$code, $out, $err] = statq_run(['fold', '-s', 'unix://' . stat_test_dir() . '/nothing.sock']);
printf("no socket: exit %d, names it: %s\n", $code, strpos($err, 'cannot connect to unix://' . stat_test_dir() . '/nothing.sock') !== false ? 'yes' : 'no');
[$code, $out, $err] = statq_run(['--version']);
printf("version: exit %d, %s\n", $code, preg_match('/^statq \d+\.\d+\.\d+ /', $out) ? 'yes' : 'no');
?>
--EXPECT--
--help: exit 0, lists commands: yes, stderr empty: yes
top --help: exit 0, usage line: yes, missing: none
fold --help: exit 0, usage line: yes, missing: none
flame --help: exit 0, usage line: yes, missing: none
speedscope --help: exit 0, usage line: yes, missing: none
record --help: exit 0, usage line: yes, missing: none
ctl --help: exit 0, usage line: yes, missing: none
status --help: exit 0, usage line: yes, missing: none
unknown command: exit 2, says so: yes
unknown option: exit 2, says so: yes
bad value: exit 2, says so: yes
bad regex: exit 2, says so: yes
two sources: exit 2
no socket: exit 1, names it: yes
version: exit 0, yes
