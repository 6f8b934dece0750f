--TEST--
stream: a socket in use by another live stat process: warning "in use", the first process keeps serving
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$path = "$dir/stream.sock";

/* a ring that holds everything the first process samples while the second starts (slow under a sanitizer) */
$first = new StatChild(['stat.stream' => $path, 'stat.samples' => '200000'], stat_stream_cpu_script(0.2));
var_dump($first->waitFor("ready\n"));
clearstatcache();
$inode = fileinode($path);

$second = new StatChild(['stat.stream' => $path], <<<'PHP'
<?php
echo "stream: [", stat\settings()['stream'], "]\n";
echo "end\n";
PHP);
var_dump($second->waitFor("end\n"));
var_dump($second->wait());
echo $second->stdout();
$warnings = array_values(array_filter(explode("\n", $second->stderr()), fn($l) => trim($l) !== ''));
printf("warnings: %d\n", count($warnings));
printf("names stat.stream: %s\n", str_contains($warnings[0] ?? '', 'stat.stream') ? 'yes' : 'no');
printf("says in use: %s\n", str_contains($warnings[0] ?? '', 'in use') ? 'yes' : 'no');

/* the second process neither took nor removed the first one's socket */
clearstatcache();
printf("same socket file: %s\n", @fileinode($path) === $inode ? 'yes' : 'no');
$stream = new StatStream($path, 5.0);
var_dump($stream->readUntil(fn($s) => count($s->samples) >= 10));
$pids = array_unique(array_map(fn($s) => $s['request']['pid'], $stream->samples));
printf("samples from the first process: %s\n", $pids === [$first->pid()] ? 'yes' : 'no');
$first->send("go\n");
var_dump(stat_stream_read_while($first, [$stream], "end\n"));
[$complete, $code, $eof] = stat_stream_finish($first, [$stream]);
var_dump($code);
var_dump($complete && $eof);
var_dump($first->stderr(), $stream->invalid);
?>
--EXPECT--
bool(true)
bool(true)
int(0)
stream: []
end
warnings: 1
names stat.stream: yes
says in use: yes
same socket file: yes
bool(true)
samples from the first process: yes
bool(true)
int(0)
bool(true)
string(0) ""
array(0) {
}
