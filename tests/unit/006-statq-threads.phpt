--TEST--
unit: statq's worker threads alone: the compressor gives ship's batches back in order, each decompressing to what was put (gzip and zstd), at most 4 at once; heads reads aggregate's entries ahead on two workers (and on none) exactly as written, ended early or not (fleet/compressor.c, fleet/heads.c, fleet/packed.c, input/sample.c, profile/table.c and profile/digests.c linked unchanged; real zlib, libzstd, json-c and hiredis)
--SKIPIF--
<?php require __DIR__ . '/unit.inc'; if (!stat_unit_cc()) die('skip needs a C compiler (cc)');
if (!is_file('/usr/include/hiredis/hiredis.h')) die('skip needs hiredis (Debian libhiredis-dev), as statq ship and aggregate do'); ?>
--INI--
stat.stream=0
stat.control=0
--FILE--
<?php
require __DIR__ . '/unit.inc';

stat_unit_run('test-statq-threads.c', ['../tools/statq/fleet/compressor.c', '../tools/statq/fleet/heads.c', '../tools/statq/fleet/packed.c',
    '../tools/statq/input/sample.c', '../tools/statq/input/strict.c', '../tools/statq/profile/table.c', '../tools/statq/profile/digests.c'], [],
    ['-lhiredis', '-ljson-c', '-lz', '-lzstd']);
?>
--EXPECT--
compressor, gzip: take from an empty compressor returns at once, with nothing: ok
compressor, gzip: 300 buffers (0 to 200 kB; a part, the whole or none with Huffman codes alone) come back in the order put, each decompressing to exactly what was put: ok
compressor, gzip: never more than 4 buffers between put and take: ok
compressor, gzip: pending counts the buffers put and not taken, and their bytes before compression: ok
compressor, gzip: stopped with buffers not taken back, it ends: ok
compressor, zstd: take from an empty compressor returns at once, with nothing: ok
compressor, zstd: 300 buffers (0 to 200 kB; a part, the whole or none with Huffman codes alone) come back in the order put, each decompressing to exactly what was put: ok
compressor, zstd: never more than 4 buffers between put and take: ok
compressor, zstd: pending counts the buffers put and not taken, and their bytes before compression: ok
compressor, zstd: stopped with buffers not taken back, it ends: ok
heads, two workers: 200 entries three times over: each entry's lines, kinds, times, weights, paths and tails as written; not gzip, dropped and NIL entries told apart: ok
heads, two workers: a list ended after 2 of its entries, then freed: the workers let go of it: ok
heads, no worker: 200 entries three times over: each entry's lines, kinds, times, weights, paths and tails as written; not gzip, dropped and NIL entries told apart: ok
heads, no worker: a list ended after 2 of its entries, then freed: the workers let go of it: ok
14 passed, 0 failed
exit: 0
