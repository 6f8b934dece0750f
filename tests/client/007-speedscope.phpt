--TEST--
client: speedscope writes valid JSON of speedscope's schema: shared frames, sampled profiles in time order, weights; shuffled input gives the same profile
--SKIPIF--
<?php require __DIR__ . '/client.inc'; if ($reason = statq_skip_reason()) die("skip $reason"); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

/* Check a speedscope file against the documented schema; returns problems. */
function schema_problems(?array $file): array
{
    if ($file === null) {
        return ['not JSON'];
    }
    $problems = [];
    if (($file['$schema'] ?? null) !== 'https://www.speedscope.app/file-format-schema.json') {
        $problems[] = '$schema';
    }
    $frames = $file['shared']['frames'] ?? null;
    if (!is_array($frames) || !array_is_list($frames)) {
        return array_merge($problems, ['shared.frames']);
    }
    foreach ($frames as $frame) {
        if (!is_string($frame['name'] ?? null) || (isset($frame['file']) && !is_string($frame['file']))) {
            $problems[] = 'frame';
        }
    }
    if (!is_array($file['profiles'] ?? null) || !$file['profiles']) {
        return array_merge($problems, ['profiles']);
    }
    foreach ($file['profiles'] as $i => $profile) {
        if (($profile['type'] ?? null) !== 'sampled' || !is_string($profile['name'] ?? null)
            || !in_array($profile['unit'] ?? null, ['none', 'nanoseconds', 'microseconds', 'milliseconds', 'seconds', 'bytes'], true)) {
            $problems[] = "profiles[$i] type/name/unit";
        }
        if (!is_numeric($profile['startValue'] ?? null) || !is_numeric($profile['endValue'] ?? null) || $profile['endValue'] < $profile['startValue']) {
            $problems[] = "profiles[$i] startValue/endValue";
        }
        if (!is_array($profile['samples'] ?? null) || !is_array($profile['weights'] ?? null) || count($profile['samples']) !== count($profile['weights'])) {
            $problems[] = "profiles[$i] samples/weights";
            continue;
        }
        foreach ($profile['samples'] as $stack) {
            foreach ($stack as $index) {
                if (!is_int($index) || $index < 0 || $index >= count($frames)) {
                    $problems[] = "profiles[$i] frame index $index";
                }
            }
        }
        foreach ($profile['weights'] as $weight) {
            if (!is_numeric($weight) || $weight <= 0) {
                $problems[] = "profiles[$i] weight $weight";
                break;
            }
        }
        if (abs($profile['startValue'] + array_sum($profile['weights']) - $profile['endValue']) > 1e-4 * max(1, count($profile['weights']))) {
            $problems[] = "profiles[$i] endValue is not startValue + weights";
        }
    }
    return array_values(array_unique($problems));
}

/* The profile as names: list of [frame names root first, weight]. */
function named(array $file, int $profile = 0): array
{
    $names = array_map(fn($f) => $f['name'], $file['shared']['frames']);
    $out = [];
    foreach ($file['profiles'][$profile]['samples'] as $i => $stack) {
        $out[] = [implode(';', array_map(fn($x) => $names[$x], $stack)), $file['profiles'][$profile]['weights'][$i]];
    }
    return $out;
}

$dir = stat_test_dir();
$file = statq_record_script(statq_hot_script(300), ['stat.interval' => '500', 'stat.stack' => '16']);
[$samples] = stat_test_decode(file_get_contents($file));
$busy = array_values(array_filter($samples, fn($s) => statq_expected_frames($s) !== null));

[$code, $out, $err] = statq_run(['speedscope', '-f', $file, '-o', "$dir/profile.json"]);
$json = json_decode(file_get_contents("$dir/profile.json"), true);
printf("speedscope: exit %d, stderr %s\n", $code, $err === '' ? 'empty' : $err);
printf("schema problems: %s\n", implode(', ', schema_problems($json)) ?: 'none');
printf("profiles: %d, type %s, unit %s, exporter %s\n", count($json['profiles']), $json['profiles'][0]['type'],
    $json['profiles'][0]['unit'], $json['exporter']);
printf("one sample per sample: %s\n", count($json['profiles'][0]['samples']) === count($busy) ? 'yes' : 'no');

/* in time order: the samples' stacks are the stacks of the JSON sorted by elapsed */
usort($busy, fn($a, $b) => $a['elapsed'] <=> $b['elapsed']);
$stacks = array_map(fn($s) => implode(';', statq_expected_frames($s)), $busy);
printf("stacks in time order: %s\n", array_column(named($json), 0) === $stacks ? 'yes' : 'no');
printf("startValue is the first sample: %s\n", abs($json['profiles'][0]['startValue'] - $busy[0]['elapsed']) < 1e-6 ? 'yes' : 'no');
/* weights: gaps within the request, about the interval (0.5 ms) typically */
$weights = $json['profiles'][0]['weights'];
sort($weights);
$median = $weights[intdiv(count($weights), 2)];
printf("median weight near the interval: %s\n", $median >= 0.0004 && $median < 0.05 ? 'yes' : "no ($median)");
$hot = array_sum(array_map(fn($p) => str_ends_with($p[0], 'hot_loop') ? $p[1] : 0, named($json)));
printf("hot_loop has most of the time: %s\n", $hot > 0.5 * array_sum($json['profiles'][0]['weights']) ? 'yes' : 'no');
$frame = array_values(array_filter($json['shared']['frames'], fn($f) => $f['name'] === 'hot_loop'))[0];
printf("user frames carry their file: %s\n", ($frame['file'] ?? '') === $samples[0]['request']['path'] ? 'yes' : 'no');

/* out of order input (as the ring can deliver it) gives the same profile */
$lines = file($file);
mt_srand(7);
shuffle($lines);
[$code, $out] = statq_run(['speedscope'], implode('', $lines));
$shuffled = json_decode($out, true);
printf("shuffled input, same profile: %s\n", named($shuffled) === named($json) ? 'yes' : 'no');

/* --weights count: each sample's weight (1, or the intervals a late tick stands for: "weight"), in time order; unit none */
[$code, $out] = statq_run(['speedscope', '--weights', 'count', '-f', $file]);
$counted = json_decode($out, true);
printf("--weights count: problems %s, unit %s, each the sample's weight: %s\n", implode(', ', schema_problems($counted)) ?: 'none',
    $counted['profiles'][0]['unit'], $counted['profiles'][0]['weights'] === array_map('statq_weight', $busy) ? 'yes' : 'no');

/* two processes: one profile per pid, or one with --merge */
$pool = __DIR__ . '/fixtures/pool.jsonl';
[$code, $out] = statq_run(['speedscope', '-f', $pool]);
$perPid = json_decode($out, true);
printf("pool: problems %s, profiles %d, names %s\n", implode(', ', schema_problems($perPid)) ?: 'none', count($perPid['profiles']),
    implode(',', array_map(fn($p) => preg_replace('/\d+/', 'N', $p['name']), $perPid['profiles'])));
[$code, $out] = statq_run(['speedscope', '--merge', '-f', $pool]);
$merged = json_decode($out, true);
printf("pool --merge: problems %s, profiles %d, samples %s\n", implode(', ', schema_problems($merged)) ?: 'none', count($merged['profiles']),
    count($merged['profiles'][0]['samples']) === count($perPid['profiles'][0]['samples']) + count($perPid['profiles'][1]['samples']) ? 'all' : 'wrong');
?>
--EXPECT--
speedscope: exit 0, stderr empty
schema problems: none
profiles: 1, type sampled, unit seconds, exporter statq 1.0.0
one sample per sample: yes
stacks in time order: yes
startValue is the first sample: yes
median weight near the interval: yes
hot_loop has most of the time: yes
user frames carry their file: yes
shuffled input, same profile: yes
--weights count: problems none, unit none, each the sample's weight: yes
pool: problems none, profiles 2, names pid N,pid N
pool --merge: problems none, profiles 1, samples all
