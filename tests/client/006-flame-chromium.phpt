--TEST--
client: the flame graph renders its frames in headless Chromium (the page's script drew them from the embedded data)
--SKIPIF--
<?php
require __DIR__ . '/client.inc';
if ($reason = statq_skip_reason()) die("skip $reason");
exec('command -v chromium', $out, $status);
if ($status !== 0) die('skip chromium is not installed (Debian package chromium)');
?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/client.inc';

$dir = stat_test_dir();
$fixture = __DIR__ . '/fixtures/shop.jsonl';
[$samples] = stat_test_decode(file_get_contents($fixture));
$expected = statq_expected_top($samples);
[$code, $out, $err] = statq_run(['flame', '-f', $fixture, '-o', "$dir/flame.html", '--title', 'shop <demo>']);
printf("flame: exit %d\n", $code);
$html = file_get_contents("$dir/flame.html");
printf("frames in the file before scripts run: %d\n", count(statq_dom_frames($html)));

$dom = statq_chromium_dom("file://$dir/flame.html");
printf("rendered: %s\n", strpos($dom, '<svg') !== false ? 'yes' : 'no: ' . substr($dom, 0, 300));
$frames = statq_dom_frames($dom);
$busy = count(array_filter($samples, fn($s) => statq_expected_frames($s) !== null));
printf("root frame with all samples: %s\n", ($frames['all'] ?? null) === $busy ? 'yes' : 'no');
printf("hot spot drawn with its count: %s\n", ($frames['Pricing::discount'] ?? null) === $expected['Pricing::discount'][1] ? 'yes' : 'no');
$wide = array_keys(array_filter($expected, fn($c) => $c[1] * 100 >= $busy));
printf("every frame of 1%% or more drawn: %s\n", ($missing = array_diff($wide, array_keys($frames))) ? 'no: ' . implode(',', $missing) : 'yes');
printf("labels: %s\n", strpos($dom, '>Pricing::discount</text>') !== false ? 'yes' : 'no');
printf("title: %s\n", strpos($dom, '<h1 id="title">shop &lt;demo&gt;</h1>') !== false ? 'yes' : 'no');
printf("summary: %s\n", preg_match('#<span id="summary">' . $busy . ' samples from #', $dom) ? 'yes' : 'no');

?>
--EXPECT--
flame: exit 0
frames in the file before scripts run: 0
rendered: yes
root frame with all samples: yes
hot spot drawn with its count: yes
every frame of 1% or more drawn: yes
labels: yes
title: yes
summary: yes
