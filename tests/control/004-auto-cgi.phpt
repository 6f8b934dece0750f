--TEST--
control: auto=0 then auto=1 in a php-cgi process serving several requests: requests started while off are not sampled
--SKIPIF--
<?php
require __DIR__ . '/../utils.inc';
if (!stat_test_sapi_binary('cgi')) die('skip needs php-cgi of PHP ' . PHP_VERSION . ' (' . stat_test_sapi_package('cgi') . ')');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
/* php-cgi -T 4 serves the script 4 times in one process, each a full request
 * (RINIT..RSHUTDOWN). StatChild runs TEST_PHP_EXECUTABLE: point it at a wrapper,
 * which also drops the CGI variables run-tests exports (php-cgi would run
 * SCRIPT_FILENAME, this test, instead of the child's script). */
file_put_contents("$dir/cgi.sh", "#!/bin/sh\n"
    . "unset SCRIPT_FILENAME PATH_TRANSLATED SCRIPT_NAME PATH_INFO REQUEST_METHOD REQUEST_URI QUERY_STRING"
    . " REDIRECT_STATUS CONTENT_TYPE CONTENT_LENGTH HTTP_COOKIE GATEWAY_INTERFACE\n"
    . "exec " . escapeshellarg(stat_test_sapi_binary('cgi')) . " -q -T 4 \"\$@\"\n");
chmod("$dir/cgi.sh", 0700);
$php = getenv('TEST_PHP_EXECUTABLE');
putenv("TEST_PHP_EXECUTABLE=$dir/cgi.sh");
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => $control,
    'stat.auto' => '1', 'stat.interval' => '500'], <<<'PHP'
<?php
function busy(float $seconds): void {
    $end = microtime(true) + $seconds;
    while (microtime(true) < $end) {
        for ($i = 0; $i < 1000; $i++) {
        }
    }
}
/* stat\elapsed() in integer microseconds: see control.inc on floats */
function us(): int {
    return (int) (stat\elapsed() * 1e6);
}
function await_auto(bool $want): bool {
    $deadline = microtime(true) + 10;
    while (stat\settings()['auto'] !== $want) {
        if (microtime(true) > $deadline) {
            return false;
        }
        busy(0.001);
    }
    return true;
}
$n = (int) @file_get_contents(__DIR__ . '/count') + 1;
file_put_contents(__DIR__ . '/count', $n);
printf("request %d start %d active %s auto %s\n", $n, us(), json_encode(stat\sampler\active()), json_encode(stat\settings()['auto']));
switch ($n) {
    case 1:
        printf("request 1 saw auto off: %s\n", json_encode(await_auto(false)));
        break;
    case 2:
        busy(0.1);
        printf("request 2 activates at %d\n", us());
        printf("request 2 activate: %s\n", json_encode(stat\sampler\activate()));
        busy(0.3);
        break;
    case 3:
        busy(0.1);
        echo "request 3 waits\n";
        printf("request 3 saw auto on: %s\n", json_encode(await_auto(true)));
        break;
    case 4:
        busy(0.3);
        break;
}
printf("request %d end %d\n", $n, us());
PHP);
putenv("TEST_PHP_EXECUTABLE=$php");

$stream = new StatStream("$dir/stream.sock");
/* request 1 is being sampled and has read the settings at its start: turn auto off */
var_dump($stream->readUntil(fn($s) => count($s->samples) > 0) && $child->waitFor("request 1 start"));
ctl_send($control, ctl_message(CTL_AUTO, 0));
var_dump($child->waitFor("request 3 waits\n"));
ctl_send($control, ctl_message(CTL_AUTO, 1));
/* to EOF while the child exits (it gives stream clients about a second to take the rest) */
var_dump($stream->readAll());
var_dump($child->wait());

$out = $child->stdout();
echo preg_replace(['/ (start|end|at) [\d.]+/', '/^request 2 activates\n/m'], ['', "request 2 activates\n"], $out);
preg_match_all('/^request (\d) start ([\d.]+)/m', $out, $starts);
preg_match_all('/^request (\d) end ([\d.]+)/m', $out, $ends);
preg_match('/^request 2 activates at ([\d.]+)/m', $out, $activates);
$start = array_combine($starts[1], array_map(fn($us) => $us / 1e6, $starts[2]));
$end = array_combine($ends[1], array_map(fn($us) => $us / 1e6, $ends[2]));

/* which request each sample belongs to: request.elapsed is taken in RINIT, before the script's first line */
$sampled = [];
$early = 0;
foreach ($stream->samples as $sample) {
    if ($sample['request']['pid'] !== $child->pid()) {
        continue;
    }
    $began = $sample['request']['elapsed'];
    $request = null;
    foreach ($start as $n => $at) {
        if ($began <= $at && ($n == 1 || $began >= $end[$n - 1])) {
            $request = $n;
            break;
        }
    }
    $sampled[$request ?? 'unknown'] = ($sampled[$request ?? 'unknown'] ?? 0) + 1;
    if ($request == 2 && $sample['elapsed'] < $activates[1] / 1e6) {
        $early++;
    }
}
ksort($sampled);
echo "requests sampled: ", implode(',', array_keys($sampled)), "\n";
echo "request 2 sampled before activate(): $early\n";
var_dump($stream->invalid);
echo preg_replace('/^Elapsed time: .*\n/m', '', $child->stderr());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(0)
request 1 active true auto true
request 1 saw auto off: true
request 1
request 2 active false auto false
request 2 activates
request 2 activate: true
request 2
request 3 active false auto false
request 3 waits
request 3 saw auto on: true
request 3
request 4 active true auto true
request 4
requests sampled: 1,2,4
request 2 sampled before activate(): 0
array(0) {
}
