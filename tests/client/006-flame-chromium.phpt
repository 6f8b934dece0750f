--TEST--
client: the flame graph renders its frames in headless Chromium (the page's script drew them from the embedded data), search marks matches, and zoom shows one frame's callees
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

/* Chromium's DOM of a page after its scripts ran (no network, a fresh profile). */
function chromium_dom(string $url): string
{
    $profile = stat_test_dir() . '/chromium-' . bin2hex(random_bytes(4));
    mkdir($profile);
    $command = ['chromium', '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
        '--user-data-dir=' . $profile, '--window-size=1200,800', '--dump-dom', $url];
    $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', "$profile.log", 'w']], $pipes);
    $dom = '';
    $deadline = microtime(true) + 25;
    stream_set_blocking($pipes[1], false);
    while (!feof($pipes[1]) && microtime(true) < $deadline) {
        $read = [$pipes[1]];
        $write = $except = null;
        if (stream_select($read, $write, $except, 0, 200000) > 0) {
            $dom .= fread($pipes[1], 1 << 20);
        }
    }
    if (!feof($pipes[1])) {
        proc_terminate($process, 9);
    }
    fclose($pipes[1]);
    proc_close($process);
    return $dom;
}

/* the frames drawn: data-name => data-samples */
function frames(string $dom, string $class = 'frame'): array
{
    preg_match_all('#<g class="' . $class . '[^"]*" data-name="([^"]*)" data-samples="(\d+)">#', $dom, $m, PREG_SET_ORDER);
    $frames = [];
    foreach ($m as $match) {
        $frames[html_entity_decode($match[1], ENT_QUOTES | ENT_HTML5)] = (int) $match[2];
    }
    return $frames;
}

$dir = stat_test_dir();
$fixture = __DIR__ . '/fixtures/shop.jsonl';
[$samples] = stat_test_decode(file_get_contents($fixture));
$expected = statq_expected_top($samples);
[$code, $out, $err] = statq_run(['flame', '-f', $fixture, '-o', "$dir/flame.html", '--title', 'shop <demo>']);
printf("flame: exit %d\n", $code);
$html = file_get_contents("$dir/flame.html");
printf("frames in the file before scripts run: %d\n", count(frames($html)));

$dom = chromium_dom("file://$dir/flame.html");
printf("rendered: %s\n", strpos($dom, '<svg') !== false ? 'yes' : 'no: ' . substr($dom, 0, 300));
$frames = frames($dom);
$busy = count(array_filter($samples, fn($s) => statq_expected_frames($s) !== null));
printf("root frame with all samples: %s\n", ($frames['all'] ?? null) === $busy ? 'yes' : 'no');
printf("hot spot drawn with its count: %s\n", ($frames['Pricing::discount'] ?? null) === $expected['Pricing::discount'][1] ? 'yes' : 'no');
$wide = array_keys(array_filter($expected, fn($c) => $c[1] * 100 >= $busy));
printf("every frame of 1%% or more drawn: %s\n", ($missing = array_diff($wide, array_keys($frames))) ? 'no: ' . implode(',', $missing) : 'yes');
printf("labels: %s\n", strpos($dom, '>Pricing::discount</text>') !== false ? 'yes' : 'no');
printf("title: %s\n", strpos($dom, '<h1 id="title">shop &lt;demo&gt;</h1>') !== false ? 'yes' : 'no');
printf("summary: %s\n", preg_match('#<span id="summary">' . $busy . ' samples from #', $dom) ? 'yes' : 'no');

/* search from the address (#q=...): matching frames are marked and their share shown */
$dom = chromium_dom("file://$dir/flame.html#q=" . rawurlencode('discount'));
$matches = frames($dom, 'frame match');
printf("search marks: %s\n", implode(',', array_keys($matches)));
$share = sprintf('%.2f%%', 100 * $expected['Pricing::discount'][1] / $busy);
printf("search share: %s\n", strpos($dom, "matched: {$expected['Pricing::discount'][1]} samples ($share)") !== false ? 'yes' : 'no');

/* zoom from the address (#zoom=NAME): that frame spans the width, the frames below it are kept (faded) to zoom out */
$dom = chromium_dom("file://$dir/flame.html#zoom=render_receipt");
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
frames in the file before scripts run: 0
rendered: yes
root frame with all samples: yes
hot spot drawn with its count: yes
every frame of 1% or more drawn: yes
labels: yes
title: yes
summary: yes
search marks: Pricing::discount
search share: yes
zoomed frame full width: yes
frames below kept: yes
other branches hidden: yes
callees drawn: yes
