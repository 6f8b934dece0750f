--TEST--
settings: a 200-byte TCP host is called too long (not missing); stat.samples past 64 bits is out of range and uses the maximum, like any value too large; "tcp://127.0.0.1: 80" (a space before the port) is refused, not bound to port 80
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/settings.inc';

$host = str_repeat('a', 200);
[$code, , $warnings] = stat_settings_child(['stat.stream' => "tcp://$host:8010"]);
printf("long host: exit %d, %s\n", $code, preg_replace('/^.*?(stat\.stream)/', '$1', str_replace($host, 'HOST', $warnings[0] ?? 'no warning')));

/* frames take room in every slot: the largest ring is mappable without stacks */
$settings = stat_settings_invalid('stat.samples', '99999999999999999999', '16777216', ['stat.stack' => '0']);
var_dump($settings['samples'] ?? 'missing');

$port = stat_test_port();
[$code, $stdout, $warnings] = stat_settings_child(['stat.stream' => "tcp://127.0.0.1: $port"]);
printf("space before the port: exit %d, %s\n", $code, preg_replace('/^.*?(stat\.stream)/', '$1', str_replace((string) $port, 'PORT', $warnings[0] ?? 'no warning')));
printf("stream in use: %s\n", json_encode(json_decode(explode("\n", $stdout)[1] ?? 'null', true)['stream'] ?? null));
?>
--EXPECTF--
long host: exit 0, stat.stream: the host name is 200 bytes, longer than the 127 allowed in 'tcp://HOST:8010'; using 0 (the socket is disabled)%s
exit: 0
warnings: 1
names stat.samples: yes
names the value given: yes
says what it uses: yes
other stderr: []
script ran: yes
int(16777216)
space before the port: exit 0, stat.stream: the port must be a number from 0 to 65535 in 'tcp://127.0.0.1: PORT'; using 0 (the socket is disabled)%s
stream in use: ""
