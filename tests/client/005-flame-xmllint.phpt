--TEST--
client: flame writes one well-formed HTML file (xmllint) holding the call tree of the samples; hostile names and title are escaped
--SKIPIF--
<?php
require __DIR__ . '/client.inc';
if ($reason = statq_skip_reason()) die("skip $reason");
exec('command -v xmllint', $out, $status);
if ($status !== 0) die('skip xmllint is not installed (libxml2-utils)');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

function xmllint(string $mode, string $file): string
{
    exec('xmllint ' . $mode . ' --noout ' . escapeshellarg($file) . ' 2>&1', $out, $status);
    return $status === 0 && !$out ? 'ok' : "status $status: " . implode("\n", $out);
}

/* every node's total is its self plus its children's totals; the root's is the sample count */
function consistent(array $node): bool
{
    $children = array_sum(array_map(fn($c) => $c[1], $node[3]));
    return $node[1] === $node[2] + $children && array_reduce($node[3], fn($ok, $c) => $ok && consistent($c), true);
}

/* the paths of the tree, folded, to compare with fold */
function paths(array $data, array $node, string $prefix, array &$out): void
{
    $name = $node[0] < 0 ? null : strtr($data['names'][$node[0]], ['%' => '%25', ';' => '%3B', "\n" => '%0A', "\r" => '%0D']);
    $path = $name === null ? '' : ($prefix === '' ? $name : "$prefix;$name");
    if ($name !== null && $node[2] > 0) {
        $out[$path] = $node[2];
    }
    foreach ($node[3] as $child) {
        paths($data, $child, $path, $out);
    }
}

$dir = stat_test_dir();
$file = statq_record_script(statq_hot_script(300), ['stat.interval' => '500', 'stat.stack' => '16']);
[$samples] = stat_test_decode(file_get_contents($file));
$busy = array_filter($samples, fn($s) => statq_expected_frames($s) !== null);

[$code, $out, $err] = statq_run(['flame', '-f', $file, '-o', "$dir/flame.html"]);
printf("flame: exit %d, stdout %s, stderr %s\n", $code, $out === '' ? 'empty' : 'not empty', $err === '' ? 'empty' : $err);
printf("well-formed XML: %s\n", xmllint('', "$dir/flame.html"));
printf("valid HTML: %s\n", xmllint('--html', "$dir/flame.html"));
$html = file_get_contents("$dir/flame.html");
$data = statq_flame_data($html);
printf("data: %s, samples %s\n", is_array($data) ? 'yes' : 'no', $data['samples'] === statq_weighted($busy) ? 'ok' : 'wrong');
$want = ['hot_loop', 'cold_hash', 'md5'];
if (isset($samples[0]['stack'])) {
    /* with stacks: the callers, down to the script's top-level code */
    $want[] = 'Work::run';
    $want[] = '<' . basename($samples[0]['request']['path']) . '>';
}
printf("frames missing: %s\n", implode(',', array_diff($want, $data['names'])) ?: 'none');
printf("tree consistent: %s, root total: %s\n", consistent($data['tree']) ? 'yes' : 'no', $data['tree'][1] === statq_weighted($busy) ? 'ok' : 'wrong');
$paths = [];
paths($data, $data['tree'], '', $paths);
printf("tree is the folded stacks: %s\n", statq_sorted($paths) === statq_expected_fold($samples) ? 'yes' : 'no');
printf("self-contained: %s\n", preg_match('#(src|href)\s*=|https?://(?!www\.w3\.org/)#', $html) ? 'no' : 'yes');
printf("drawn by script, not in the markup: %s\n", strpos($html, 'class="frame') === false ? 'yes' : 'no');

/* names and title that would break HTML or XML if not escaped */
$evil = '</script><b title="x">&amp;';
$line = json_encode(['type' => 'user', 'request' => ['pid' => 7, 'elapsed' => 0.1, 'path' => '/x.php'], 'elapsed' => 0.2,
    'location' => ['file' => '/x.php', 'line' => 1, 'offset' => 0], 'symbol' => ['scope' => 'A;B', 'function' => $evil]], JSON_UNESCAPED_SLASHES);
file_put_contents("$dir/evil.jsonl", "$line\n$line\n");
[$code] = statq_run(['flame', '-f', "$dir/evil.jsonl", '-o', "$dir/evil.html", '--title', 'T <&> "' . $evil]);
printf("hostile names: exit %d, XML %s, HTML %s\n", $code, xmllint('', "$dir/evil.html"), xmllint('--html', "$dir/evil.html"));
$data = statq_flame_data(file_get_contents("$dir/evil.html"));
printf("name kept exactly: %s\n", $data['names'] === ["A;B::$evil"] ? 'yes' : 'no');
printf("title escaped: %s\n", strpos(file_get_contents("$dir/evil.html"), '<title>T &lt;&amp;&gt; &quot;&lt;/script&gt;') !== false ? 'yes' : 'no');

/* an input without samples (a text file of another kind: a services list) is an error, and writes no page */
$services = '';
foreach (['ftp' => 21, 'ssh' => 22, 'smtp' => 25, 'http' => 80, 'https' => 443] as $name => $port) {
    $services .= "$name\t\t$port/tcp\t\t\t# $name\n";
}
file_put_contents("$dir/services", str_repeat($services, 70));
[$code, $out, $err] = statq_run(['flame', '-o', "$dir/empty.html", '-f', "$dir/services"]);
printf("not a recording: exit %d, page %s: %s", $code, file_exists("$dir/empty.html") ? 'written' : 'not written', substr($err, strpos($err, "\n") + 1));
?>
--EXPECTF--
flame: exit 0, stdout empty, stderr empty
well-formed XML: ok
valid HTML: ok
data: yes, samples ok
frames missing: none
tree consistent: yes, root total: ok
tree is the folded stacks: yes
self-contained: yes
drawn by script, not in the markup: yes
hostile names: exit 0, XML ok, HTML ok
name kept exactly: yes
title escaped: yes
not a recording: exit 1, page not written: statq: flame: no samples in %s/services: 350 lines, none of them a stat sample (is it a recording of stat's stream?)
