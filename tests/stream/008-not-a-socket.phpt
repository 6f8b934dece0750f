--TEST--
stream: a regular file at the stream path is left alone, with one warning naming stat.stream; PHP runs on
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
$path = "$dir/stream.sock";
$content = "not a socket\n\x00\xff keep me\n";
file_put_contents($path, $content);

$child = new StatChild(['stat.stream' => "unix://$path"], <<<'PHP'
<?php
echo "stream: [", stat\settings()['stream'], "]\n";
echo "end\n";
PHP);
var_dump($child->waitFor("end\n"));
var_dump($child->wait());
echo $child->stdout();
$warnings = array_values(array_filter(explode("\n", $child->stderr()), fn($l) => trim($l) !== ''));
printf("warnings: %d\n", count($warnings));
printf("names stat.stream: %s\n", str_contains($warnings[0] ?? '', 'stat.stream') ? 'yes' : 'no');
printf("says not a socket: %s\n", str_contains($warnings[0] ?? '', 'not a socket') ? 'yes' : 'no');
printf("names the path: %s\n", str_contains($warnings[0] ?? '', $path) ? 'yes' : 'no');
clearstatcache();
printf("still a regular file: %s\n", is_file($path) ? 'yes' : 'no');
printf("content unchanged: %s\n", file_get_contents($path) === $content ? 'yes' : 'no');
printf("nobody listens there: %s\n", @stream_socket_client("unix://$path", $errno, $errstr, 1.0) ? 'no' : 'yes');
?>
--EXPECT--
bool(true)
int(0)
stream: []
end
warnings: 1
names stat.stream: yes
says not a socket: yes
names the path: yes
still a regular file: yes
content unchanged: yes
nobody listens there: yes
