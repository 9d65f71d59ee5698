#!/bin/bash
# Session 31 call 3: every controller call of GPU runs 1-4 (rt2.mjs ALL=1), RMAT 24 weighted, wcc and bfs.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || timeout 150 $T generate rmat --scale 24 --weighted --out /tmp/g24.tsr > $OUT/gen.txt 2>&1
for p in wcc bfs; do ALL=1 RUNS=4 CELLS=$p timeout 60 node .device/rt2.mjs /tmp/g24.tsr > $OUT/rt-$p.txt 2>&1; done
grep -h "runs\|^-- run" $OUT/rt-*.txt
