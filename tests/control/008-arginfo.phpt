--TEST--
control: arginfo=1 adds "arginfo" to samples taken afterwards (not before); arginfo=0 removes it again
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/control.inc';

$dir = stat_test_dir();
$control = "unix://$dir/control.sock";
$worker = new CtlWorker(['stat.stream' => "unix://$dir/stream.sock", 'stat.control' => $control,
    'stat.interval' => '200', 'stat.arginfo' => '0']);
printf("arginfo at start: %s\n", json_encode($worker->report()['settings']['arginfo']));
$stream = new StatStream("$dir/stream.sock");

/* enough samples of ctl_target() after $from (child's clock) */
$targets = function (float $from) use ($stream) {
    return array_values(array_filter(ctl_samples_of($stream->samples, 'ctl_target'), fn($s) => $s['elapsed'] > $from));
};
var_dump($stream->readUntil(fn() => count($targets(0.0)) >= 50));
$beforeEnd = max(array_column($stream->samples, 'elapsed'));

ctl_send($control, ctl_message(CTL_ARGINFO, 1));
$on = $worker->await('settings', 'arginfo', '==', true);
printf("child saw arginfo on: %s\n", json_encode($on['met']));
var_dump($stream->readUntil(fn() => count($targets($on['elapsed'])) >= 50));
$offEnd = max(array_column($stream->samples, 'elapsed'));

ctl_send($control, ctl_message(CTL_ARGINFO, 0));
$off = $worker->await('settings', 'arginfo', '==', false);
printf("child saw arginfo off: %s\n", json_encode($off['met']));
var_dump($stream->readUntil(fn() => count($targets($off['elapsed'])) >= 50));
[$code, $final] = $worker->finish();
var_dump($code);

$before = $after = $later = [];
foreach ($stream->samples as $sample) {
    if ($sample['elapsed'] <= $beforeEnd) {
        $before[] = $sample;
    } elseif ($sample['elapsed'] > $on['elapsed'] && $sample['elapsed'] <= $offEnd) {
        $after[] = $sample;
    } elseif ($sample['elapsed'] > $off['elapsed']) {
        $later[] = $sample;
    }
}
$with = fn(array $samples) => count(array_filter($samples, fn($s) => array_key_exists('arginfo', $s)));
printf("before: samples: %s, with arginfo: %d\n", count($before) > 0 ? 'yes' : 'no', $with($before));
/* every sample that names a function carries arginfo, after the change */
$named = array_filter($after, fn($s) => isset($s['symbol']));
printf("after: samples with a function: %s, all with arginfo: %s\n", count($named) > 0 ? 'yes' : 'no',
    $with($named) === count($named) ? 'yes' : 'no (' . $with($named) . ' of ' . count($named) . ')');
/*
 * Every sample's arguments are this call's: they come from the copy of the
 * stack the frame came from (a read afterwards could find the slots filled
 * by the stream_select() the loop calls in between, under the next call's
 * head: 7% of the samples under load once). Their sizes are read just
 * after: when the call returned meanwhile, the sample has the types alone.
 */
$full = 'int, string(5), array(3), object(ArrayObject)';
$shapes = [];
foreach (ctl_samples_of($after, 'ctl_target') as $sample) {
    $shape = implode(', ', $sample['arginfo']);
    $shapes[$shape] = ($shapes[$shape] ?? 0) + 1;
}
arsort($shapes);
echo "ctl_target(3000, 'hello', [1, 2, 3], ArrayObject) arginfo:\n";
echo array_key_first($shapes), "\n";
$others = array_diff_key($shapes, [$full => true, 'int, string, array, object' => true]);
printf("every sample that shape, or its types alone: %s\n", $others ? 'no: ' . json_encode($shapes) : 'yes');
printf("sizes in most samples: %s\n", ($shapes[$full] ?? 0) * 2 > array_sum($shapes) ? 'yes' : 'no: ' . json_encode($shapes));
printf("after arginfo=0: samples: %s, with arginfo: %d\n", count($later) > 0 ? 'yes' : 'no', $with($later));
var_dump($stream->invalid, $final['counters']['control_applied'], $final['counters']['control_invalid'], $worker->stderr());
?>
--EXPECT--
arginfo at start: false
bool(true)
child saw arginfo on: true
bool(true)
child saw arginfo off: true
bool(true)
int(0)
before: samples: yes, with arginfo: 0
after: samples with a function: yes, all with arginfo: yes
ctl_target(3000, 'hello', [1, 2, 3], ArrayObject) arginfo:
int, string(5), array(3), object(ArrayObject)
every sample that shape, or its types alone: yes
sizes in most samples: yes
after arginfo=0: samples: yes, with arginfo: 0
array(0) {
}
int(2)
int(0)
string(0) ""
