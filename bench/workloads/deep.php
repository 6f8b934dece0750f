<?php
/*
 * Deep stack: recurse to a fixed depth (1,000 by default, BENCH_DEPTH or the
 * second argument to change it), then run a hot loop of small calls at the
 * bottom, so nearly every sample sees the whole stack. The work at the bottom
 * does not depend on the depth, so depth 10 and depth 1,000 can be compared.
 * Scale 1 is ~1.5 s.
 */
$scale = (float) ($argv[1] ?? (getenv('BENCH_SCALE') ?: 1));
$depth = (int) ($argv[2] ?? (getenv('BENCH_DEPTH') ?: 1000));
$iterations = max(1, (int) round(45000000 * $scale));

function leaf(int $i): int
{
	return ($i * 31) ^ ($i >> 3);
}

function bottom(int $iterations): int
{
	$sum = 0;
	for ($i = 0; $i < $iterations; $i++) {
		$sum = ($sum + leaf($i)) & 0xffffff;
	}
	return $sum;
}

function descend(int $level, int $iterations): int
{
	return $level <= 1 ? bottom($iterations) : descend($level - 1, $iterations) + 1;
}

echo "deep $depth $iterations ", descend($depth, $iterations), "\n";
