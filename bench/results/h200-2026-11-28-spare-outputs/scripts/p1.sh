#!/bin/bash
# Call 1: A (the build before) against B (a handed pooled output replaced in the pool, faulted in ahead), in turn. GPU-only on RMAT 24 weighted (wcc, bfs; 8 runs, results kept) and CPU-only on RMAT 22 (bfs, wcc; 12 runs, results kept).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-bc-sources/scripts
uname -r; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; nproc
node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr >> /tmp/gen.txt 2>&1
A="ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
for i in 1 2; do for c in wcc bfs; do
  echo "== GPU $c A keep"; env $A GPU=1 KEEP=1 node $S/so.mjs $c /tmp/g24.tsr 8
  echo "== GPU $c B keep"; GPU=1 KEEP=1 node $S/so.mjs $c /tmp/g24.tsr 8
done; done
for c in wcc bfs; do
  echo "== GPU $c A nopopulate keep"; env $A TESSERA_NO_POPULATE=1 GPU=1 KEEP=1 node $S/so.mjs $c /tmp/g24.tsr 8
  echo "== GPU $c A gap50 keep"; env $A GAP_MS=50 GPU=1 KEEP=1 node $S/so.mjs $c /tmp/g24.tsr 8
  echo "== GPU $c B gap50 keep"; GAP_MS=50 GPU=1 KEEP=1 node $S/so.mjs $c /tmp/g24.tsr 8
done
for i in 1 2; do for c in bfs wcc; do
  echo "== CPU $c A keep"; env $A KEEP=1 node $S/so.mjs $c /tmp/g22.tsr 12
  echo "== CPU $c B keep"; KEEP=1 node $S/so.mjs $c /tmp/g22.tsr 12
done; done
