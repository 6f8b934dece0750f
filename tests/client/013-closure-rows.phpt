--TEST--
client: every closure is a row of its own, named by where it is defined ("K::{closure:/path/x.php:LINE}"), with and without stacks; two closures of one class are never merged
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$script = <<<'PHP'
<?php
final class K {
    public function hot(): callable {
        return function (int $n): int { $s = 0; for ($i = 0; $i < $n; $i++) { $s += $i; } return $s; };
    }
    public function warm(): callable {
        return function (int $n): string { $s = ''; for ($i = 0; $i < $n; $i++) { $s = md5($s); } return $s; };
    }
}
$k = new K;
[$hot, $warm] = [$k->hot(), $k->warm()];
$deadline = microtime(true) + 20;
while (stat\counters()['samples_written'] < 3000 && microtime(true) < $deadline) {
    $hot(20000);
    $warm(2000);
}
PHP;

foreach (['0', '8'] as $stack) {
    $file = statq_record_script($script, ['stat.interval' => '100', 'stat.stack' => $stack], "stack-$stack.jsonl");
    [$samples] = stat_test_decode(file_get_contents($file));
    [$code, $out] = statq_run(['top', '--once', '--rows', '0', '-f', $file]);
    $rows = $shown = [];
    foreach (statq_parse_top($out) as [$self, , $total, , $function]) {
        $shown[$function] = [$self, $total];
        if (str_contains($function, '{closure')) {
            $rows[preg_replace('#:/\S+/child-[0-9a-f]{8}\.php:#', ':child.php:', $function)] = $self;
        }
    }
    ksort($rows);
    printf("stat.stack=%s: top exit %d, closure rows %s\n", $stack, $code, json_encode(array_keys($rows)));
    printf("stat.stack=%s: as documented: %s\n", $stack, statq_sorted($shown) === statq_expected_top($samples) ? 'yes' : 'no');
    printf("stat.stack=%s: both sampled: %s\n", $stack, count($rows) === 2 && min($rows) > 0 ? 'yes' : 'no');

    [$code, $out] = statq_run(['fold', '-f', $file]);
    $closures = [];
    foreach (array_keys(statq_parse_folded($out)) as $folded) {
        foreach (explode(';', $folded) as $frame) {
            if (str_contains($frame, '{closure')) {
                $closures[preg_replace('#:/\S+/child-[0-9a-f]{8}\.php:#', ':child.php:', $frame)] = true;
            }
        }
    }
    ksort($closures);
    printf("stat.stack=%s: fold closure frames %s\n", $stack, json_encode(array_keys($closures)));
}
?>
--EXPECT--
stat.stack=0: top exit 0, closure rows ["K::{closure:child.php:4}","K::{closure:child.php:7}"]
stat.stack=0: as documented: yes
stat.stack=0: both sampled: yes
stat.stack=0: fold closure frames ["K::{closure:child.php:4}","K::{closure:child.php:7}"]
stat.stack=8: top exit 0, closure rows ["K::{closure:child.php:4}","K::{closure:child.php:7}"]
stat.stack=8: as documented: yes
stat.stack=8: both sampled: yes
stat.stack=8: fold closure frames ["K::{closure:child.php:4}","K::{closure:child.php:7}"]
