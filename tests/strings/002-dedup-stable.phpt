--TEST--
strings: names already interned are not inserted again: strings_inserted is small and stops growing while samples go on
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/../utils.inc';

/* stat.dump gives the child a reader: a process nothing can read from samples nothing on its own */
$child = new StatChild(['stat.interval' => '100', 'stat.dump' => '3'], <<<'PHP'
<?php
/* each function does work of its own, so each is the current frame in many samples */
class Dedup {
    public function hash(string $s): string { for ($i = 0; $i < 100; $i++) { $s .= 'x'; } return md5($s); }
    public static function sum(int $n): int { $t = 0; for ($i = 0; $i < $n; $i++) { $t += $i; } return $t; }
}
function dedup_work(Dedup $d): int {
    $t = 0;
    for ($i = 0; $i < 100; $i++) { $t += $i; }
    return $t + strlen($d->hash('abc')) + Dedup::sum(200);
}
$d = new Dedup;
$start = microtime(true);
$seen = [];
/*
 * Only these functions run in the loop, so no new name comes up between the
 * two marks. The first mark waits until every name has been sampled: 2000
 * samples and no insertion for the last second (the loop's own calls,
 * stat\counters() and microtime(), are a small share of it: on a busy
 * machine 2000 samples may not have caught them yet), at most 10 s; the
 * second is 0.5 s later.
 */
$k = 0;
$second = 0.0;
$inserted = -1;
$changed = 0.0;
while ($k < 2) {
    dedup_work($d);
    $counters = stat\counters();
    $now = microtime(true) - $start;
    if ($counters['strings_inserted'] !== $inserted) {
        $inserted = $counters['strings_inserted'];
        $changed = $now;
    }
    if ($k === 0 && (($now - $changed >= 1.0 && $counters['samples_written'] >= 2000) || $now >= 10.0)) {
        $seen[$k++] = $counters;
        $second = $now + 0.5;
    } elseif ($k === 1 && $now >= $second) {
        $seen[$k++] = $counters;
    }
}
echo json_encode($seen), "\n";
PHP, [3 => ['file', '/dev/null', 'w']]);

var_dump($child->wait(), $child->stderr());
[$a, $b] = json_decode($child->stdout(), true) + [null, null];
printf("samples taken in between: %s\n", $b['samples_written'] - $a['samples_written'] > 100 ? 'yes' : 'no (' . ($b['samples_written'] - $a['samples_written']) . ')');
printf("inserted by the first mark is small: %s\n", $a['strings_inserted'] > 0 && $a['strings_inserted'] <= 20 ? 'yes' : "no ({$a['strings_inserted']})");
printf("inserted 0.5 s later is the same: %s\n", $a['strings_inserted'] === $b['strings_inserted'] ? 'yes' : "no ({$a['strings_inserted']} then {$b['strings_inserted']})");
printf("arena use unchanged: %s\n", $a['strings_used'] === $b['strings_used'] ? 'yes' : 'no');
printf("none full: %s\n", $b['strings_full'] === 0 ? 'yes' : 'no');
?>
--EXPECT--
int(0)
string(0) ""
samples taken in between: yes
inserted by the first mark is small: yes
inserted 0.5 s later is the same: yes
arena use unchanged: yes
none full: yes
