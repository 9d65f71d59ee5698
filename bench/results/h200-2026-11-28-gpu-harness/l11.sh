#!/bin/bash
# Session 37 call 12: gpu-check (RMAT 20, GPU share 1: the addon's Louvain passes changed) and the GPU harness on RMAT 24 (bfs, wcc; GAPBS on the 16 cores).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1 &
([ -f /tmp/g24w.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1) &
timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json /tmp/o/gc1.json > /tmp/o/gc1.txt 2>&1; echo "gpu-check 1 rc=$?" >> /tmp/o/machine.txt
wait
t0=$(date +%s)
timeout 170 node dist/src/cli/main.js bench --config bench/gpu-gapbs-rmat24.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/b24 --no-progress > /tmp/o/bench24.log 2>&1; echo "bench24 rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/b24/*/ | head -1); cp "$d"/results.md /tmp/o/results24.md; cp "$d"/cells.jsonl /tmp/o/cells24.jsonl
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; tail -2 /tmp/o/gc1.txt
grep "^| rmat" /tmp/o/results24.md | cut -d'|' -f2-9 | head -12
