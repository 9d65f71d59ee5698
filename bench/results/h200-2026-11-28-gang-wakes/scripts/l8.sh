#!/bin/bash
# Session 37 call 9: bfs's runs 0-7 on RMAT 22 (16 threads), each gang thread's start and run per superstep (an instrumented copy, .device/G).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules; tar xJf .device/G.tar.xz -C .device; ln -sfn /tmp/node_modules .device/G/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_NATIVE_DIR=$PWD/build/Release
rm -rf /tmp/o; mkdir -p /tmp/o
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /dev/null 2>&1
for r in 1 2 3; do
  GANG_TL=1 RECYCLE=1 ROOT=$PWD/.device/G node .device/cvr.mjs bfs /tmp/g22.tsr 8 > /tmp/o/gt-$r.txt 2>&1
  node .device/gt.mjs < /tmp/o/gt-$r.txt > /tmp/o/sum-$r.txt
  GANG_TL=1 RECYCLE=1 ROOT=$PWD/.device/G node .device/cvr.mjs wcc /tmp/g22.tsr 8 > /tmp/o/gtw-$r.txt 2>&1
  node .device/gt.mjs < /tmp/o/gtw-$r.txt > /tmp/o/sumw-$r.txt
done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/sum-*.txt; head -40 /tmp/o/sumw-1.txt
