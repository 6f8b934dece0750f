<?php
/*
 * CPU-bound mix: recursion, method calls, string and array work, closures.
 * A fixed amount of work: scale 1 (default) is ~1.5 s on the reference machine;
 * `php cpu.php 0.02` or BENCH_SCALE=0.02 makes it tiny.
 */
$scale = (float) ($argv[1] ?? (getenv('BENCH_SCALE') ?: 1));
$rounds = max(1, (int) round(2400 * $scale));

final class Tree
{
	public function fib(int $n): int
	{
		return $n < 2 ? $n : $this->fib($n - 1) + $this->fib($n - 2);
	}
}

final class Text
{
	public function words(int $seed): array
	{
		$words = [];
		for ($i = 0; $i < 40; $i++) {
			$words[] = substr(md5((string) ($seed + $i)), 0, 3 + $i % 7);
		}
		return $words;
	}

	public function render(array $words): string
	{
		$line = implode(' ', array_map(fn(string $w): string => ucfirst($w), $words));
		return str_replace(['a', 'e'], ['4', '3'], sprintf('[%s] %d', $line, strlen($line)));
	}
}

function numbers(int $seed): array
{
	$numbers = range(1, 300);
	usort($numbers, fn(int $a, int $b): int => (($a * 7919 + $seed) % 301) <=> (($b * 7919 + $seed) % 301));
	return array_filter($numbers, function (int $n) use ($seed): bool {
		return ($n + $seed) % 3 !== 0;
	});
}

$tree = new Tree;
$text = new Text;
$checksum = 0;
for ($round = 0; $round < $rounds; $round++) {
	$checksum += $tree->fib(17);
	$checksum += strlen($text->render($text->words($round)));
	$checksum += array_sum(numbers($round));
	$counts = array_count_values(str_split(str_repeat('abcde', 40 + $round % 13)));
	ksort($counts);
	$checksum += count($counts);
	$checksum %= 1000000007;
}
echo "cpu $rounds $checksum\n";
