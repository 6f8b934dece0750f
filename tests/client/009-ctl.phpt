--TEST--
client: ctl changes a live stat process (interval, arginfo, auto, stack) over the control socket; unknown names and bad values are clear errors and send nothing
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$dir = stat_test_dir();
statq_binary();
$control = "unix://$dir/control.sock";

$child = new StatChild(['stat.control' => $control, 'stat.interval' => '100', 'stat.stack' => '16'], <<<'PHP'
<?php
function settled(callable $done): void {
    $deadline = microtime(true) + 20;
    while (!$done(stat\settings()) && microtime(true) < $deadline) {
        usleep(1000);
    }
}
echo "ready interval ", stat\settings()['interval'], "\n";
settled(fn($s) => $s['interval'] !== 100);
echo "interval ", stat\settings()['interval'], "\n";
settled(fn($s) => $s['arginfo'] && !$s['auto']);
echo "arginfo ", json_encode(stat\settings()['arginfo']), " auto ", json_encode(stat\settings()['auto']), "\n";
settled(fn($s) => $s['stack'] !== 16);
echo "stack ", stat\settings()['stack'], "\n";
fgets(STDIN);
$c = stat\counters();
echo "applied {$c['control_applied']} invalid {$c['control_invalid']}\n";
PHP);
var_dump($child->waitFor("ready interval 100\n"));

/* errors first: each is a usage error (exit 2), names the problem, and sends nothing */
$bad = [
    ['interval', '5'], ['interval', '10000001'], ['interval', 'fast'], ['stack', '257'], ['samplers', '-1'],
    ['auto', 'maybe'], ['frobnicate', '1'], ['interval'], [], ['interval', '50', 'arginfo'],
];
foreach ($bad as $args) {
    [$code, $out, $err] = statq_run(array_merge(['ctl', '-c', $control], $args));
    printf("ctl %s: exit %d: %s", implode(' ', $args), $code, $err);
}
[$code, $out, $err] = statq_run(['ctl', '-c', "unix://$dir/none.sock", 'interval', '50']);
printf("no socket: exit %d, names it: %s\n", $code, strpos($err, "cannot connect to unix://$dir/none.sock") !== false ? 'yes' : 'no');

[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'interval', '50']);
printf("ctl interval 50: exit %d: %s", $code, str_replace($control, 'CONTROL', $out));
var_dump($child->waitFor("interval 50\n"));
[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'arginfo', 'on', 'auto', 'off']);
printf("ctl arginfo on auto off: exit %d: %s", $code, str_replace($control, 'CONTROL', $out));
var_dump($child->waitFor("arginfo true auto false\n"));
[$code, $out, $err] = statq_run(['ctl', '-c', $control, 'stack', '8']);
printf("ctl stack 8: exit %d: %s", $code, str_replace($control, 'CONTROL', $out));
var_dump($child->waitFor("stack 8\n"));
$child->send("counters\n");
var_dump($child->wait());
echo substr($child->stdout(), strrpos(rtrim($child->stdout()), "\n") + 1);
?>
--EXPECT--
bool(true)
ctl interval 5: exit 2: statq: ctl: interval must be a whole number from 10 to 10000000 microseconds, '5' given
ctl interval 10000001: exit 2: statq: ctl: interval must be a whole number from 10 to 10000000 microseconds, '10000001' given
ctl interval fast: exit 2: statq: ctl: interval must be a whole number from 10 to 10000000 microseconds, 'fast' given
ctl stack 257: exit 2: statq: ctl: stack must be a whole number from 0 to 256 frames, '257' given
ctl samplers -1: exit 2: statq: ctl: samplers must be a whole number from 0 to 1000000 samplers (0: unlimited), '-1' given
ctl auto maybe: exit 2: statq: ctl: auto must be on or off, 'maybe' given
ctl frobnicate 1: exit 2: statq: ctl: unknown setting 'frobnicate' (known: auto, samplers, interval, arginfo, stack)
ctl interval: exit 2: statq: ctl: interval needs a value (a number)
ctl : exit 2: statq: ctl: nothing to send: give NAME VALUE, e.g. statq ctl interval 50 (see statq ctl --help)
ctl interval 50 arginfo: exit 2: statq: ctl: arginfo needs a value (on or off)
no socket: exit 1, names it: yes
ctl interval 50: exit 0: sent interval 50 to CONTROL
bool(true)
ctl arginfo on auto off: exit 0: sent arginfo on to CONTROL
sent auto off to CONTROL
bool(true)
ctl stack 8: exit 0: sent stack 8 to CONTROL
bool(true)
int(0)
applied 4 invalid 0
