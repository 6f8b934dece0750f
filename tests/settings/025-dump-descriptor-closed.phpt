--TEST--
settings: stat.dump=1 and a script that closes its stdout and opens a file (which takes descriptor 1): the ring still goes where descriptor 1 pointed at startup (a copy kept since startup), neither lost nor written into the script's file
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

$dir = stat_test_dir();
$child = new StatChild(['stat.dump' => '1', 'stat.interval' => '200'], <<<PHP
<?php
\$until = microtime(true) + 20;
while (stat\\counters()['samples_written'] < 50 && microtime(true) < \$until) {
    md5('x');
}
fclose(STDOUT);
\$file = fopen('$dir/script-file.txt', 'w');
fwrite(\$file, "the script's own line\\n");
fclose(\$file);
\$file = fopen('$dir/script-file.txt', 'a');
fwrite(STDERR, "descriptor 1 reused: " . json_encode(is_resource(\$file)) . "\\n");
PHP);
var_dump($child->wait(), $child->stderr());
printf("the script's file holds only its line: %s\n", file_get_contents("$dir/script-file.txt") === "the script's own line\n" ? 'yes' : 'no: ' . substr(file_get_contents("$dir/script-file.txt"), 0, 200));
[$samples, $lost, $invalid] = stat_test_decode($child->stdout());
printf("the dump came on the original stdout: %s samples, all valid: %s\n", count($samples) >= 50 ? '50 or more' : count($samples), $invalid === [] ? 'yes' : 'no');
?>
--EXPECT--
int(0)
string(26) "descriptor 1 reused: true
"
the script's file holds only its line: yes
the dump came on the original stdout: 50 or more samples, all valid: yes
