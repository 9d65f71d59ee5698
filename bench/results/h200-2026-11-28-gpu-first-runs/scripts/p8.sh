#!/bin/bash
# Session 40 call 8: the GPU warm-up at create (B: two supersteps of a kernel that does nothing through the GPU actor) against the build before it (A: .device/Abc/dist), GPU-only on RMAT 24 weighted: bfs, wcc, pr, sssp, two fresh engines each in turn (gfr.mjs); gpu-check (GPU share 1) of B.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-gpu-first-runs/scripts
(nproc; lscpu | grep -i "model name"; nvidia-smi -L) > /tmp/m.txt
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for r in 1 2; do for p in bfs wcc pr sssp; do
  echo "## $p round $r A" >> /tmp/gfr.txt; ROOT=$PWD/.device/Abc TESSERA_NATIVE_DIR=$PWD/build/Release timeout 100 node $S/gfr.mjs /tmp/g24.tsr $p 6 >> /tmp/gfr.txt 2>&1
  echo "## $p round $r B" >> /tmp/gfr.txt; timeout 100 node $S/gfr.mjs /tmp/g24.tsr $p 6 >> /tmp/gfr.txt 2>&1
done; done
timeout 170 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/gc.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/gc.txt
cat /tmp/m.txt /tmp/gfr.txt > $OUT/call8-gfr.txt; cp /tmp/gc.txt $OUT/call8-gpu-check.txt
cat /tmp/m.txt; python3 .device/cvsum.py /tmp/gfr.txt; tail -3 /tmp/gc.txt
