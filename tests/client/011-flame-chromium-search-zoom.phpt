--TEST--
client: the flame graph in headless Chromium searches and zooms at load from the address (#q=, #zoom=): matches marked with their share, the zoomed frame full width
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
$busy = count(array_filter($samples, fn($s) => statq_expected_frames($s) !== null));
[$code] = statq_run(['flame', '-f', $fixture, '-o', "$dir/flame.html"]);
printf("flame: exit %d\n", $code);

/* one load: zoomed into render_receipt, searching md5 */
$dom = statq_chromium_dom("file://$dir/flame.html#zoom=render_receipt&q=md5");
printf("search marks: %s\n", implode(',', array_keys(statq_dom_frames($dom, 'frame match'))));
$share = sprintf('%.2f%%', 100 * $expected['md5'][1] / $busy);
printf("search share: %s\n", strpos($dom, "matched: {$expected['md5'][1]} samples ($share)") !== false ? 'yes' : 'no');
preg_match_all('#<g class="(frame[^"]*)" data-name="([^"]*)" data-samples="\d+"><rect x="([\d.]+)" y="\d+" width="([\d.]+)"#', $dom, $m, PREG_SET_ORDER);
$drawn = [];
foreach ($m as [, $class, $name, $x, $width]) {
    $drawn[html_entity_decode($name, ENT_QUOTES | ENT_HTML5)] = [$class, (float) $x, (float) $width];
}
$full = $drawn['all'][2] ?? -1;
printf("zoomed frame full width: %s\n", isset($drawn['render_receipt']) && $drawn['render_receipt'][1] == 0 && abs($drawn['render_receipt'][2] - $full) < 0.01 ? 'yes' : 'no');
printf("frames below kept: %s\n", ($drawn['all'][0] ?? '') === 'frame above' ? 'yes' : 'no');
printf("other branches hidden: %s\n", isset($drawn['Pricing::discount']) ? 'no' : 'yes');
printf("callees drawn: %s\n", isset($drawn['md5']) && $drawn['md5'][2] < $full ? 'yes' : 'no');
?>
--EXPECT--
flame: exit 0
search marks: md5
search share: yes
zoomed frame full width: yes
frames below kept: yes
other branches hidden: yes
callees drawn: yes
