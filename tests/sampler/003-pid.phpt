--TEST--
sampler: stat\pid() is getmypid(), the process's real pid, and the request.pid of its samples
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/sampler.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '100'],
    "<?php\n" . stat_sampler_spinner('pid_work') . <<<'PHP'
echo "ready\n";
fgets(STDIN);
pid_work(0.15, 20);
var_dump(stat\pid() === getmypid());
echo stat\pid(), "\n";
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll(), $child->wait(), $child->stderr());
$lines = explode("\n", $child->stdout());
echo $lines[1], "\n";
printf("stat\\pid() is the process id: %s\n", (int) $lines[2] === $child->pid() ? 'yes' : "no ({$lines[2]} vs {$child->pid()})");
$pids = array_values(array_unique(array_map(fn($s) => $s['request']['pid'], $stream->samples)));
printf("samples: %s\n", count($stream->samples) > 0 ? 'some' : 'none');
printf("request.pid of every sample is stat\\pid(): %s\n", $pids === [(int) $lines[2]] ? 'yes' : json_encode($pids));
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(0) ""
bool(true)
stat\pid() is the process id: yes
samples: some
request.pid of every sample is stat\pid(): yes
