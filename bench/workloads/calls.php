<?php
/*
 * Call-heavy: millions of tiny user function and method calls, the worst case
 * for profilers that hook function entry and exit. Scale 1 is ~1.5 s.
 */
$scale = (float) ($argv[1] ?? (getenv('BENCH_SCALE') ?: 1));
$calls = max(1, (int) round(24000000 * $scale));

function add(int $a, int $b): int
{
	return $a + $b;
}

final class Counter
{
	private int $value = 0;

	public function bump(int $by): void
	{
		$this->value = ($this->value + $by) & 0xffffff;
	}

	public function value(): int
	{
		return $this->value;
	}
}

$counter = new Counter;
$total = 0;
for ($i = 0; $i < $calls; $i++) {
	$total = add($total, $i) & 0xffffff;
	$counter->bump($i * 3);
}
echo "calls $calls ", $total ^ $counter->value(), "\n";
