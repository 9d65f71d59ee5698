#!/bin/bash
# Session 38 call 6: wcc's team (B) against the serial reference on RMAT 22 (16 threads) and RMAT 20 undirected.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o6
[ -f /tmp/g22.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /dev/null 2>&1
node dist/src/cli/main.js generate rmat --scale 20 --undirected --out /tmp/g20u.tsr > /dev/null 2>&1
for f in /tmp/g22.tsr /tmp/g20u.tsr; do echo "== $f"; ROOT=$PWD node .device/wcheck2.mjs $f; done > /tmp/o6/wcheck.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o6
cat /tmp/o6/wcheck.txt
