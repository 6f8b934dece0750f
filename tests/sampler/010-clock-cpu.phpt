--TEST--
sampler: stat.clock=wall samples a request that alternates 2 ms of usleep() and 2 ms of CPU evenly (usleep 30-70%); stat.clock=cpu samples its CPU time (usleep under 10%, the CPU loop over 80%); every sample names its clock; the clock changes live through the control socket
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

const ALTERNATE = <<<'PHP'
<?php
function burn() { $t = hrtime(true); $x = 0; while (hrtime(true) - $t < 2000000) { $x++; } return $x; }
function alternate(float $seconds) { $s = microtime(true); while (microtime(true) - $s < $seconds) { usleep(2000); burn(); } }
PHP;

function shares(array $samples): array
{
    $count = ['usleep' => 0, 'burn' => 0, 'all' => 0];
    foreach ($samples as $sample) {
        $f = $sample['symbol']['function'] ?? '';
        if ($f === 'usleep') {
            $count['usleep']++;
        } elseif ($f === 'burn' || $f === 'hrtime') {
            $count['burn']++;
        }
        $count['all']++;
    }
    return [$count['usleep'] / max(1, $count['all']), $count['burn'] / max(1, $count['all']), $count['all']];
}

$dir = stat_test_dir();
foreach (['wall', 'cpu'] as $clock) {
    /* until at least 400 samples: a loaded machine gives the sampler less time */
    $child = new StatChild(['stat.clock' => $clock, 'stat.interval' => '200', 'stat.samples' => '50000', 'stat.dump' => '3'],
        ALTERNATE . "\n\$s = microtime(true); do { alternate(0.3); } while (stat\\counters()['samples_written'] < 400 && microtime(true) - \$s < 20);\n",
        [3 => ['file', "$dir/$clock.jsonl", 'w']]);
    $code = $child->wait();
    [$samples, , $invalid] = stat_test_decode((string) file_get_contents("$dir/$clock.jsonl"));
    $samples = array_values(array_filter($samples, fn($s) => $s['type'] !== 'memory'));
    [$usleep, $burn, $all] = shares($samples);
    $clocks = array_unique(array_column($samples, 'clock'));
    printf("%s: exit %d, enough samples: %s, clocks [%s], invalid %d\n", $clock, $code, $all >= 300 ? 'yes' : "no ($all)", implode(',', $clocks), count($invalid));
    if ($clock === 'wall') {
        printf("wall: usleep 30-70%%: %s\n", $usleep >= 0.3 && $usleep <= 0.7 ? 'yes' : sprintf('no (%.1f%%)', 100 * $usleep));
    } else {
        printf("cpu: usleep under 10%%: %s, the CPU loop over 80%%: %s\n", $usleep < 0.1 ? 'yes' : sprintf('no (%.1f%%)', 100 * $usleep),
            $burn > 0.8 ? 'yes' : sprintf('no (%.1f%%)', 100 * $burn));
    }
}

/* live: a request running on the wall clock is switched to the CPU clock and back */
$child = new StatChild(['stat.stream' => "$dir/stream.sock", 'stat.control' => "$dir/control.sock", 'stat.interval' => '200'],
    ALTERNATE . "\necho json_encode(stat\\settings()['clock']), \"\\n\"; while (!feof(STDIN)) { alternate(0.05); \$r = [STDIN]; \$w = \$e = null; if (stream_select(\$r, \$w, \$e, 0) && fgets(STDIN) === \"stop\\n\") break; }\necho json_encode(stat\\settings()['clock']), \"\\n\";\n");
var_dump($child->waitFor("\"wall\"\n"));
$stream = new StatStream("$dir/stream.sock");
$stream->readUntil(fn($s) => count(array_filter($s->samples, fn($x) => ($x['clock'] ?? '') === 'wall')) >= 100, 15.0);
$control = stat_test_connect("$dir/control.sock");
fwrite($control, pack('q2', 1 << 6, 1));
stream_set_timeout($control, 10);
printf("reply: %s\n", json_encode(unpack('q2', (string) fread($control, 16))));
$cpu = fn($s) => array_values(array_filter($s->samples, fn($x) => ($x['clock'] ?? '') === 'cpu'));
var_dump($stream->readUntil(fn($s) => count($cpu($s)) >= 100, 15.0));
[$usleep] = shares($cpu($stream));
printf("after the switch: usleep under 10%%: %s\n", $usleep < 0.1 ? 'yes' : sprintf('no (%.1f%%)', 100 * $usleep));
fwrite($control, pack('q2', 1 << 6, 2));
printf("clock 2: %s\n", json_encode(unpack('q2', (string) fread($control, 16))));
fwrite($control, pack('q2', 1 << 6, 0));
printf("back: %s\n", json_encode(unpack('q2', (string) fread($control, 16))));
$child->send("stop\n");
var_dump($child->wait());
echo $child->stdout();
?>
--EXPECT--
wall: exit 0, enough samples: yes, clocks [wall], invalid 0
wall: usleep 30-70%: yes
cpu: exit 0, enough samples: yes, clocks [cpu], invalid 0
cpu: usleep under 10%: yes, the CPU loop over 80%: yes
bool(true)
reply: {"1":0,"2":1}
bool(true)
after the switch: usleep under 10%: yes
clock 2: {"1":2,"2":1}
back: {"1":0,"2":0}
int(0)
"wall"
"wall"
