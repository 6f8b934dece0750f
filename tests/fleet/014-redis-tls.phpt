--TEST--
fleet: rediss:// (TLS) against a real redis-server with TLS and client certificates made here with openssl: ship and aggregate with ?ca=, ?cert= and ?key= move every sample; a server certificate from another CA, a missing client certificate, and a CA file that is not there are each one clear error and exit 1
--SKIPIF--
<?php require __DIR__ . '/fleet.inc'; if ($reason = fleet_skip_reason(['redis-server', 'openssl'])) die("skip $reason");
[, $version] = statq_run(['--version']);
if (!str_contains($version, 'hiredis, TLS')) die('skip statq is built without TLS here (hiredis_ssl: hiredis 1.0 or later; bookworm has 0.14): fleet/012 checks that rediss:// then says so');
if (!str_contains((string) shell_exec('redis-server --help 2>&1') . (string) shell_exec('ldd "$(command -v redis-server)" 2>/dev/null'), 'ssl')) die('skip this redis-server has no TLS'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/fleet.inc';

$dir = stat_test_dir();
$ssl = function (array $args) {
    [$code, , $err] = fleet_run(array_merge(['openssl'], $args));
    if ($code !== 0) {
        throw new RuntimeException('openssl ' . implode(' ', $args) . ": $err");
    }
};
/* two CAs; a server certificate for 127.0.0.1 and a client certificate, both signed by the first */
foreach (['ca', 'other'] as $ca) {
    $ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', "$ca.key", '-out', "$ca.crt", '-days', '2', '-subj', "/CN=stat test $ca"]);
}
file_put_contents("$dir/san.cnf", "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
foreach (['server' => ['-extfile', 'san.cnf'], 'client' => []] as $name => $more) {
    $ssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', "$name.key", '-out', "$name.csr", '-subj', "/CN=$name"]);
    $ssl(array_merge(['x509', '-req', '-in', "$name.csr", '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', "$name.crt", '-days', '2'], $more));
}
$probe = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
fclose($probe);
$redis = new FleetRedis(null, ['args' => ['--tls-port', (string) $port, '--tls-cert-file', "$dir/server.crt", '--tls-key-file', "$dir/server.key",
    '--tls-ca-cert-file', "$dir/ca.crt", '--tls-auth-clients', 'yes']]);
$file = statq_record_script(statq_hot_script(400), ['stat.interval' => '200', 'stat.stack' => '16']);
[, $folded] = statq_run(['fold', '-f', $file]);
/* (the files' paths %-escaped, as an address's query may be) */
$url = fn(array $query) => "rediss://127.0.0.1:$port?" . implode('&', array_map(fn($k) => "$k=" . rawurlencode($query[$k]), array_keys($query)));
$client = ['ca' => "$dir/ca.crt", 'cert' => "$dir/client.crt", 'key' => "$dir/client.key"];
$first = fn(string $err): string => trim(str_replace([$dir, (string) $port], ['DIR', 'PORT'], (string) strtok($err, "\n")));

[$code, , $err] = statq_run(['ship', '-f', $file, '--redis', $url($client), '--stream', 's', '--batch', '50']);
printf("ship over TLS: exit %d, entries: %s\n", $code, count($redis->entries('s')) > 0 ? 'yes' : "no\n$err");
[$code, , $err] = statq_run(['aggregate', '--redis', $url($client), '--stream', 's', '--group', 'g', '--dir', "$dir/out", '--once']);
printf("aggregate over TLS: exit %d, daily all = the recording: %s, pending: %d\n", $code,
    fleet_folded("$dir/out/daily/*.all.folded*") === statq_parse_folded($folded) ? 'yes' : "no\n$err", $redis->pending('s', 'g'));

foreach (['a server certificate from another CA' => ['ca' => "$dir/other.crt"] + $client,
        'no client certificate' => ['ca' => "$dir/ca.crt"],
        'a CA file that is not there' => ['ca' => "$dir/none.crt"] + $client] as $what => $query) {
    [$code, , $err] = statq_run(['ship', '-f', $file, '--redis', $url($query), '--stream', 'refused', '--batch', '50']);
    [$acode, , $aerr] = statq_run(['aggregate', '--redis', $url($query), '--stream', 's', '--group', 'g2', '--dir', "$dir/refused", '--once']);
    printf("%s: ship: exit %d, said: %s; aggregate: exit %d, said: %s; entries: %d\n", $what, $code,
        preg_match('/TLS/', (string) strtok($err, "\n")) ? 'yes' : $first($err), $acode,
        preg_match('/TLS/', (string) strtok($aerr, "\n")) ? 'yes' : $first($aerr), count($redis->entries('refused')));
}
?>
--EXPECT--
ship over TLS: exit 0, entries: yes
aggregate over TLS: exit 0, daily all = the recording: yes, pending: 0
a server certificate from another CA: ship: exit 1, said: yes; aggregate: exit 1, said: yes; entries: 0
no client certificate: ship: exit 1, said: yes; aggregate: exit 1, said: yes; entries: 0
a CA file that is not there: ship: exit 1, said: yes; aggregate: exit 1, said: yes; entries: 0
