<?php
/*
 * Allocation-heavy: arrays, objects and strings created and freed all the
 * time, so the allocator and the garbage collector do most of the work.
 * Scale 1 is ~1.5 s.
 */
$scale = (float) ($argv[1] ?? (getenv('BENCH_SCALE') ?: 1));
$rounds = max(1, (int) round(12000 * $scale));

final class Node
{
	public ?Node $next = null;
	public array $tags;

	public function __construct(public int $id, public string $name)
	{
		$this->tags = [$name, (string) $id];
	}
}

$checksum = 0;
for ($round = 0; $round < $rounds; $round++) {
	$head = null;
	for ($i = 0; $i < 100; $i++) {
		$node = new Node($i, str_repeat('x', $i % 17) . $round);
		$node->next = $head;
		$head = $node;
	}
	$rows = [];
	for ($i = 0; $i < 60; $i++) {
		$rows[] = ['id' => $i, 'name' => "row-$i-$round", 'values' => array_fill(0, 8, $i)];
	}
	$checksum += count(array_column($rows, 'name', 'id')) + strlen(json_encode($rows));
	/* a cycle, so the collector has something to find */
	$a = new stdClass;
	$b = new stdClass;
	$a->other = $b;
	$b->other = $a;
	unset($a, $b, $rows, $head, $node);
	$checksum %= 1000000007;
}
echo "alloc $rounds $checksum\n";
