<?php
/*
 * A short report of a recorded stream: functions by self and inclusive
 * samples. (The full client is tools/statq.)
 */
$file = $argv[1] ?? 'php://stdin';
$self = $total = [];
$samples = $bad = 0;
foreach (new SplFileObject($file) as $line) {
    if (trim($line) === '') {
        continue;
    }
    $sample = json_decode($line, true);
    if (!is_array($sample)) {
        $bad++;
        continue;
    }
    if (($sample['type'] ?? '') === 'lost' || !isset($sample['location']) && !isset($sample['symbol'])) {
        continue;
    }
    $samples++;
    $frames = $sample['stack'] ?? [($sample['symbol'] ?? []) + ['file' => $sample['location']['file'] ?? null]];
    $seen = [];
    foreach ($frames as $i => $frame) {
        if (($frame['function'] ?? '') === '[truncated]') {
            continue;
        }
        $name = isset($frame['function'])
            ? (isset($frame['scope']) ? "{$frame['scope']}::" : '') . $frame['function']
            : '<' . basename($frame['file'] ?? '?') . '>';
        if ($i === 0) {
            $self[$name] = ($self[$name] ?? 0) + 1;
        }
        if (!isset($seen[$name])) {
            $total[$name] = ($total[$name] ?? 0) + 1;
            $seen[$name] = true;
        }
    }
}
arsort($self);
printf("\n%8s %6s %8s %6s  %s\n", 'self', 'self%', 'total', 'total%', 'function');
foreach (array_slice($self, 0, 12, true) as $name => $count) {
    printf("%8d %5.1f%% %8d %5.1f%%  %s\n", $count, 100 * $count / max(1, $samples), $total[$name], 100 * $total[$name] / max(1, $samples), $name);
}
if ($bad) {
    fprintf(STDERR, "%d malformed lines skipped\n", $bad);
}
