--TEST--
poolsampler: the pool sampler stopped (SIGSTOP) or killed (SIGKILL) never harms PHP: requests go on (2,000 activate()/deactivate() in a row, each true), sampling resumes once it runs again, and the process exits cleanly without it
--SKIPIF--
<?php require __DIR__ . '/poolsampler.inc'; if ($why = stat_poolsampler_skip()) die("skip $why"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/poolsampler.inc';
require __DIR__ . '/../pool/pool.inc';

$dir = stat_test_dir();
$script = "<?php\n" . stat_poolsampler_busy('busy') . <<<'PHP'
/* 2,000 requests' worth of starts and stops: how many were refused or not active */
function cycles(): string {
    $bad = 0;
    for ($i = 0; $i < 2000; $i++) {
        $bad += !stat\sampler\activate() || !stat\sampler\active();
        $bad += !stat\sampler\deactivate();
    }
    return "$bad of 4000 failed";
}
echo "pool ", stat\settings()['pool']['pid'] ?? 0, "\n";
stat\sampler\deactivate();
fgets(STDIN);
echo "stopped: ", cycles(), "\n";
stat\sampler\activate();
fgets(STDIN);
/* running again: it samples */
$before = stat\counters()['samples_written'];
$end = hrtime(true) + 20e9;
while (stat\counters()['samples_written'] < $before + 100 && hrtime(true) < $end) {
    busy(0.01);
}
echo "resumed: ", stat\counters()['samples_written'] >= $before + 100 ? 'sampling' : 'not sampling', "\n";
stat\sampler\deactivate();
fgets(STDIN);
echo "killed: ", cycles(), "\n";
stat\sampler\activate();
busy(0.1);
echo "done\n";
PHP;
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.sampler' => 'pool', 'stat.interval' => '1000'], $script);
var_dump($child->waitFor("\n"));
preg_match('/^pool (\d+)$/m', $child->stdout(), $m);
$pool = (int) ($m[1] ?? 0);
printf("pool sampler: %s\n", $pool > 0 ? 'yes' : 'no');

stat_pool_kill($pool, SIGSTOP);
$child->send("go\n");
var_dump($child->waitFor("stopped: "));
stat_pool_kill($pool, SIGCONT);
$child->send("go\n");
var_dump($child->waitFor("resumed: "));
stat_pool_kill($pool, SIGKILL);
$child->send("go\n");
var_dump($child->wait(), $child->stderr());
echo preg_replace('/^pool \d+\n/m', '', $child->stdout());
?>
--EXPECT--
bool(true)
pool sampler: yes
bool(true)
bool(true)
int(0)
string(0) ""
stopped: 0 of 4000 failed
resumed: sampling
killed: 0 of 4000 failed
done
