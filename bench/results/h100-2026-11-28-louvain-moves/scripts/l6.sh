#!/bin/bash
# Session 37 call 6: louvain's phases run by run (view, moves, the rest) in a fresh engine, RMAT 16, 16 threads; a profile of every thread.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules; tar xJf .device/P.tar.xz -C .device; ln -sfn /tmp/node_modules .device/P/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
for r in 1 2 3; do TESSERA_NATIVE_DIR=$ROOT/build/Release node .device/P/x/lv-r.mjs rmat:16:weighted 16 12 > /tmp/o/phases-$r.txt 2>&1; done
TESSERA_NATIVE_DIR=$ROOT/build/Release node --cpu-prof --cpu-prof-dir=/tmp/o/prof .device/P/x/lv-r.mjs rmat:16:weighted 16 12 > /tmp/o/phases-prof.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/phases-*.txt
