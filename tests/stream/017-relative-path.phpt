--TEST--
stream: a relative unix path is bound in the working directory at startup, served, and removed at exit even after the script changed directory
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/stream.inc';

$dir = stat_test_dir();
mkdir("$dir/elsewhere");
/* StatChild starts the child in stat_test_dir(); the script moves away before it ends */
$script = str_replace("echo \"end\\n\";", "chdir(__DIR__ . '/elsewhere');\necho \"end\\n\";", stat_stream_cpu_script(0.2, true));
foreach (['rel.sock', 'unix://scheme-rel.sock'] as $address) {
    $file = "$dir/" . preg_replace('#^unix://#', '', $address);
    $child = new StatChild(['stat.stream' => $address, 'stat.auto' => '0'], $script);
    var_dump($child->waitFor("ready\n"));
    clearstatcache();
    printf("%s: socket in the working directory: %s\n", $address, @filetype($file) === 'socket' ? 'yes' : 'no');
    $stream = new StatStream($file);
    $child->send("go\n");
    var_dump(stat_stream_read_while($child, [$stream], "end\n"));
    [$complete, $code, $eof] = stat_stream_finish($child, [$stream]);
    var_dump($code, $complete && $eof, $child->stderr());
    printf("%s: samples: %s, invalid: %d\n", $address, count($stream->samples) > 0 ? 'yes' : 'no', count($stream->invalid));
    clearstatcache();
    printf("%s: removed at exit: %s\n", $address, stat_test_wait_gone($file) ? 'yes' : 'no');
    printf("%s: nothing created elsewhere: %s\n", $address, scandir("$dir/elsewhere") === ['.', '..'] ? 'yes' : 'no');
}
?>
--EXPECT--
bool(true)
rel.sock: socket in the working directory: yes
bool(true)
int(0)
bool(true)
string(0) ""
rel.sock: samples: yes, invalid: 0
rel.sock: removed at exit: yes
rel.sock: nothing created elsewhere: yes
bool(true)
unix://scheme-rel.sock: socket in the working directory: yes
bool(true)
int(0)
bool(true)
string(0) ""
unix://scheme-rel.sock: samples: yes, invalid: 0
unix://scheme-rel.sock: removed at exit: yes
unix://scheme-rel.sock: nothing created elsewhere: yes
