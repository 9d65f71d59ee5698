#!/bin/bash
# Session 37 call 5: louvain's moves: A (f2672f6, serial) against B (batched, choices ranked on the workers), RMAT 16 and 18.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules; tar xJf .device/A.tar.xz -C .device; ln -sfn /tmp/node_modules .device/A/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD TESSERA_NATIVE_FLAVOR=host
A() { TESSERA_NATIVE_DIR=$ROOT/.device/A/build/Release "$@"; }
rm -rf /tmp/o; mkdir -p /tmp/o
for r in 1 2; do
  echo "== A" >> /tmp/o/p16.txt; A node .device/A/x/lv-q2.mjs rmat:16:weighted >> /tmp/o/p16.txt 2>&1
  echo "== B" >> /tmp/o/p16.txt; node .device/lv-q2.mjs rmat:16:weighted >> /tmp/o/p16.txt 2>&1
done
for r in 1 2; do
  echo "== A" >> /tmp/o/r16.txt; A node .device/A/x/lv-r.mjs rmat:16:weighted 16 15 >> /tmp/o/r16.txt 2>&1
  echo "== B" >> /tmp/o/r16.txt; node .device/lv-r.mjs rmat:16:weighted 16 15 >> /tmp/o/r16.txt 2>&1
done
echo "== A" >> /tmp/o/p18.txt; A node .device/A/x/lv-q2.mjs rmat:18:weighted >> /tmp/o/p18.txt 2>&1
echo "== B" >> /tmp/o/p18.txt; node .device/lv-q2.mjs rmat:18:weighted >> /tmp/o/p18.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/r16.txt; cut -c1-120 /tmp/o/p16.txt; cut -c1-200 /tmp/o/p18.txt
