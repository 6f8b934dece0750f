--TEST--
stream: a CPU-bound script sampled at 100us over a unix socket: valid JSON, real functions, real lines
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

$dir = stat_test_dir();
file_put_contents("$dir/inc.php", $include = <<<'PHP'
<?php
function inc_work(int $n): string {
    $s = '';
    for ($i = 0; $i < $n; $i++) {
        $s .= md5((string) $i);
    }
    return $s;
}
PHP);

$child = new StatChild(['stat.stream' => "unix://$dir/stream.sock", 'stat.interval' => '100'], $script = <<<'PHP'
<?php
require __DIR__ . '/inc.php';
class Tree {
    public function fib(int $n): int {
        return $n < 2 ? $n : $this->fib($n - 1) + $this->fib($n - 2);
    }
    public static function sort(array $a): array {
        usort($a, fn($x, $y) => $x <=> $y);
        return $a;
    }
}
function work(): int {
    $tree = new Tree;
    $square = function (int $x): int {
        $t = 0;
        for ($i = 0; $i < $x; $i++) { $t += $i * $i; }
        return $t;
    };
    return $tree->fib(15) + $square(3000) + count(Tree::sort(range(50, 1, -1))) + strlen(inc_work(200));
}
echo "ready\n";
fgets(STDIN);
$start = microtime(true);
while (microtime(true) - $start < 0.6) {
    work();
}
$ranges = [];
foreach (['work' => new ReflectionFunction('work'), 'inc_work' => new ReflectionFunction('inc_work'),
          'Tree::fib' => new ReflectionMethod('Tree', 'fib'), 'Tree::sort' => new ReflectionMethod('Tree', 'sort')] as $name => $r) {
    $ranges[$name] = [$r->getFileName(), $r->getStartLine(), $r->getEndLine()];
}
echo json_encode($ranges), "\n";
PHP);

var_dump($child->waitFor("ready\n"));
$stream = new StatStream("$dir/stream.sock");
$child->send("go\n");
var_dump($stream->readAll());
var_dump($child->wait());
$ranges = json_decode(trim(substr($child->stdout(), strlen("ready\n"))), true);

var_dump($stream->invalid, $stream->rest());
printf("enough samples: %s\n", count($stream->samples) >= 500 ? 'yes' : 'no (' . count($stream->samples) . ')');

$users = ['work', 'inc_work', 'Tree::fib', 'Tree::sort', '{closure}', 'Tree::{closure}', '-'];
$unknown = $wrongLine = [];
$seen = [];
foreach ($stream->samples as $sample) {
    $symbol = stat_test_symbol($sample);
    if ($sample['request']['pid'] !== $child->pid()) {
        $unknown[] = 'pid ' . $sample['request']['pid'];
    }
    /* user code: one of the script's functions; internal: a function the script calls */
    $function = $sample['symbol']['function'] ?? '';
    if ($sample['type'] === 'user' ? !in_array($symbol, $users, true)
        : ($sample['type'] === 'internal' && stripos($script . $include, $function) === false && stripos($script, $sample['symbol']['scope'] ?? "\0") === false)) {
        $unknown[] = $symbol;
    }
    $seen[$symbol] = true;
    if ($sample['type'] === 'user' && isset($ranges[$symbol], $sample['location']['line'])) {
        [$file, $start, $end] = $ranges[$symbol];
        $line = $sample['location']['line'];
        if ($sample['location']['file'] !== $file || $line < $start || $line > $end) {
            $wrongLine[] = "$symbol at {$sample['location']['file']}:$line";
        }
    }
}
var_dump(array_unique($unknown), array_unique($wrongLine));
foreach (['work', 'Tree::fib', '{closure}'] as $expect) {
    printf("%s sampled: %s\n", $expect, isset($seen[$expect]) ? 'yes' : 'no');
}
$working = array_filter($stream->samples, fn($s) => stat_test_symbol($s) !== 'fgets');
$types = array_count_values(array_column($working, 'type'));
printf("user and internal samples: %s\n", ($types['user'] ?? 0) > 0 && ($types['internal'] ?? 0) > 0 ? 'yes' : 'no');
$first = $stream->samples[0];
printf("fields: %s\n", implode(',', array_slice(array_keys($first), 0, 5)));
printf("request: %s\n", implode(',', array_keys($first['request'])));
printf("path is the script: %s\n", str_ends_with($first['request']['path'], '.php') ? 'yes' : 'no');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
array(0) {
}
string(0) ""
enough samples: yes
array(0) {
}
array(0) {
}
work sampled: yes
Tree::fib sampled: yes
{closure} sampled: yes
user and internal samples: yes
fields: type,request,elapsed,time,clock
request: pid,elapsed,path
path is the script: yes
