--TEST--
stream: hostile names (quote, backslash, newline, tab, invalid UTF-8 in the path; non-ASCII function names): valid JSON, exact text, U+FFFD for invalid bytes
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$path = "$dir/hostile \"quoted\" back\\slash new\nline\ttab \xff\xfe bytes.php";
$expectPath = str_replace("\xff\xfe", "\u{FFFD}\u{FFFD}", $path);
/* valid UTF-8 names, and one with Latin-1 bytes that are not UTF-8 */
$script = <<<PHP
<?php
function größe_ƒ(int \$n): int { return \$n < 2 ? \$n : größe_ƒ(\$n - 1) + größe_ƒ(\$n - 2); }
function raw_\xe9\xff(int \$n): int { return \$n < 2 ? \$n : raw_\xe9\xff(\$n - 1) + raw_\xe9\xff(\$n - 2); }
class Ünïcode { public function méthode(int \$n): int { return \$n < 2 ? \$n : \$this->méthode(\$n - 1) + \$this->méthode(\$n - 2); } }
echo "ready\\n";
fgets(STDIN);
stat\\sampler\\activate();
\$o = new Ünïcode;
\$start = microtime(true);
while ((microtime(true) - \$start < 0.6 || stat\\counters()['samples_written'] < 600) && microtime(true) - \$start < 20) { größe_ƒ(15); raw_\xe9\xff(15); \$o->méthode(15); }
stat\\sampler\\deactivate();
echo 'counters ', json_encode(stat\\counters()), "\\n";
echo "end\\n";
fgets(STDIN);
PHP;
file_put_contents($path, $script);

/* StatChild runs a script of its own naming; this child must run the hostile file itself */
$socket = "$dir/stream.sock";
$process = proc_open(stat_test_command(['stat.stream' => $socket, 'stat.auto' => '0', 'stat.samples' => '100000'], [$path]),
    [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', "$dir/stderr", 'w']], $pipes, $dir);
printf("ready: %s\n", trim((string) fgets($pipes[1])));
$stream = new StatStream($socket);
fwrite($pipes[0], "go\n");
/* the counters come after the sampler stopped; the ring holds every sample until then */
while (($line = fgets($pipes[1])) !== false && !str_starts_with($line, 'counters ')) {
}
$counters = json_decode(substr((string) $line, strlen('counters ')), true);
var_dump($stream->readUntil(fn($s) => count($s->samples) >= $counters['samples_written']));
fclose($pipes[0]);
var_dump($stream->readAll());
fclose($pipes[1]);
printf("exit: %d\n", proc_close($process));
printf("stderr: [%s]\n", file_get_contents("$dir/stderr"));

var_dump($stream->invalid, $stream->rest());
printf("every sample written received: %s\n", count($stream->samples) === $counters['samples_written'] ? 'yes' : 'no');
$paths = array_unique(array_map(fn($s) => $s['request']['path'], $stream->samples));
printf("request.path exact: %s\n", $paths === [$expectPath] ? 'yes' : 'no: ' . json_encode(array_values($paths)));
$files = array_unique(array_map(fn($s) => $s['location']['file'], array_filter($stream->samples, fn($s) => isset($s['location']['file']))));
printf("location.file exact: %s\n", array_values($files) === [$expectPath] ? 'yes' : 'no: ' . json_encode(array_values($files)));
$seen = stat_test_histogram($stream->samples);
foreach (['größe_ƒ', "raw_\u{FFFD}\u{FFFD}", 'Ünïcode::méthode'] as $name) {
    printf("%s sampled: %s\n", json_encode($name), isset($seen[$name]) ? 'yes' : 'no');
}
/* (and the calls around the loop; a tick can fall while activate() returns: the sampler starts within it) */
$unexpected = array_diff(array_keys($seen), ['größe_ƒ', "raw_\u{FFFD}\u{FFFD}", 'Ünïcode::méthode', 'microtime', 'stat\counters',
    'stat\sampler\activate', 'stat\sampler\deactivate', '-']);
var_dump(array_values($unexpected));
?>
--EXPECT--
ready: ready
bool(true)
bool(true)
exit: 0
stderr: []
array(0) {
}
string(0) ""
every sample written received: yes
request.path exact: yes
location.file exact: yes
"gr\u00f6\u00dfe_\u0192" sampled: yes
"raw_\ufffd\ufffd" sampled: yes
"\u00dcn\u00efcode::m\u00e9thode" sampled: yes
array(0) {
}
