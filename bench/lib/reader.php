<?php
/*
 * A stream client like a real consumer: connect to stat's stream socket,
 * read JSON lines until stat closes the stream at exit, decode every line and
 * count what arrived. Prints one JSON object on stdout at the end.
 *
 *   php reader.php <socket path> [deadline seconds] [--raw]
 *
 * --raw only counts lines (and "lost" lines) without decoding them: the rate
 * the stream itself delivers, without the client's JSON cost.
 *
 * The socket appears when the profiled process starts; this polls for it
 * (with a deadline) instead of assuming an order.
 */
$path = $argv[1] ?? '';
$deadline = microtime(true) + (float) ($argv[2] ?? 10);
$raw = in_array('--raw', $argv, true);
if ($path === '') {
	fwrite(STDERR, "usage: php reader.php <socket path> [deadline seconds]\n");
	exit(2);
}

$socket = false;
while (microtime(true) < $deadline) {
	if (file_exists($path) && ($socket = @stream_socket_client("unix://$path", $errno, $errstr, 1))) {
		break;
	}
	usleep(1000);
}
if (!$socket) {
	fwrite(STDERR, "reader: cannot connect to $path\n");
	exit(1);
}
stream_set_read_buffer($socket, 0);

$counts = ['samples' => 0, 'lost_lines' => 0, 'lost' => 0, 'invalid' => 0, 'frames' => 0, 'bytes' => 0,
	'types' => [], 'first' => null, 'last' => null];
$connected = microtime(true);
if ($raw) {
	$tail = '';
	while (($chunk = fread($socket, 65536)) !== false && $chunk !== '') {
		$counts['bytes'] += strlen($chunk);
		$chunk = $tail . $chunk;
		$end = strrpos($chunk, "\n");
		if ($end === false) {
			$tail = $chunk;
			continue;
		}
		$lines = substr_count($chunk, "\n", 0, $end + 1);
		$lost = substr_count($chunk, '{"type":"lost"', 0, $end + 1);
		$counts['samples'] += $lines - $lost;
		$counts['lost_lines'] += $lost;
		$tail = (string) substr($chunk, $end + 1);
	}
	$counts['invalid'] = $tail === '' ? 0 : 1;
	$counts['seconds'] = microtime(true) - $connected;
	echo json_encode($counts), "\n";
	exit(0);
}
while (($line = fgets($socket)) !== false) {
	$counts['bytes'] += strlen($line);
	$sample = json_decode($line, true);
	if (!is_array($sample) || !isset($sample['type'])) {
		$counts['invalid']++;
		continue;
	}
	if ($sample['type'] === 'lost') {
		$counts['lost_lines']++;
		$counts['lost'] += (int) ($sample['count'] ?? 0);
		continue;
	}
	$counts['samples']++;
	$counts['types'][$sample['type']] = ($counts['types'][$sample['type']] ?? 0) + 1;
	$counts['frames'] += isset($sample['stack']) ? count($sample['stack']) : 0;
	$elapsed = $sample['elapsed'] ?? null;
	if (is_float($elapsed) || is_int($elapsed)) {
		$counts['first'] = $counts['first'] === null ? $elapsed : min($counts['first'], $elapsed);
		$counts['last'] = $counts['last'] === null ? $elapsed : max($counts['last'], $elapsed);
	}
}
$counts['seconds'] = microtime(true) - $connected;
echo json_encode($counts), "\n";
