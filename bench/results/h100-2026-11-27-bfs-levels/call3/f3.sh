#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g24w.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1
CELLS=bfs RUNS=10 timeout 200 node .device/rt.mjs /tmp/g24w.tsr > /tmp/o/rt.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/rt.txt
