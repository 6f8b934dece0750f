--TEST--
stream: a TCP port already in use: one warning naming stat.stream, PHP runs on, the other listener is untouched
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
$name = stream_socket_get_name($server, false);
$child = new StatChild(['stat.stream' => "tcp://$name"], <<<'PHP'
<?php
echo "stream: [", stat\settings()['stream'], "]\n";
echo "end\n";
PHP);
var_dump($child->waitFor("end\n"));
var_dump($child->wait());
echo $child->stdout();
$warnings = array_values(array_filter(explode("\n", $child->stderr()), fn($l) => trim($l) !== ''));
printf("warnings: %d\n", count($warnings));
printf("names stat.stream and the address: %s\n", str_contains($warnings[0] ?? '', 'stat.stream') && str_contains($warnings[0] ?? '', $name) ? 'yes' : 'no: ' . ($warnings[0] ?? ''));
/* the port's owner still accepts */
$client = stream_socket_client("tcp://$name", $errno, $errstr, 5.0);
$accepted = stream_socket_accept($server, 5.0);
printf("the owner still accepts: %s\n", $client && $accepted ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
int(0)
stream: []
end
warnings: 1
names stat.stream and the address: yes
the owner still accepts: yes
