#!/bin/bash
# Session 40 call 6: a session's first GPU run (one H200 owning every vertex), RMAT 24 weighted: bfs, wcc, pr, sssp, bc, two fresh engines each (gfr.mjs).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-gpu-first-runs/scripts
(nproc; lscpu | grep -i "model name"; nvidia-smi -L) > /tmp/m.txt
node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for r in 1 2; do for p in bfs wcc pr sssp bc; do echo "## $p round $r" >> /tmp/gfr.txt; timeout 100 node $S/gfr.mjs /tmp/g24.tsr $p 6 >> /tmp/gfr.txt 2>&1; done; done
cat /tmp/m.txt /tmp/gen.txt /tmp/gfr.txt > $OUT/call6-gfr.txt
cat /tmp/m.txt; python3 .device/cvsum.py /tmp/gfr.txt
