#!/bin/bash
# Session 40 call 9: with the GPU warm-up (B), a first GPU run against a warm one, each controller call timed (rt.mjs, FIRST=1): wcc and bfs GPU-only on RMAT 24 weighted, one fresh engine each.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-gpu-first-runs/scripts
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for c in wcc bfs; do FIRST=1 CELLS=$c RUNS=6 node $S/rt.mjs /tmp/g24.tsr > /tmp/rt-$c.txt 2>&1; done
cat /tmp/rt-wcc.txt > $OUT/call9-rt-wcc.txt; cat /tmp/rt-bfs.txt > $OUT/call9-rt-bfs.txt
head -45 /tmp/rt-wcc.txt; head -45 /tmp/rt-bfs.txt
