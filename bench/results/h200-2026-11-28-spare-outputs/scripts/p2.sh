#!/bin/bash
# Call 2: GPU-only on RMAT 24 weighted, results kept, 10 runs a fresh engine, back to back and 50 ms apart: A (the build before), B (outputs replaced in the pool, GPU runs only; the old addon), C (B with populate a few huge pages a call), in turn.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-bc-sources/scripts
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
A="ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/.device/N0"
B="TESSERA_NATIVE_DIR=$PWD/.device/N0"
C="ROOT=$PWD"
for i in 1 2; do for c in wcc bfs; do for gap in 0 50; do for v in A B C; do
  echo "== GPU $c $v gap$gap"; env ${!v} GAP_MS=$gap GPU=1 KEEP=1 node $S/so.mjs $c /tmp/g24.tsr 10
done; done; done; done
