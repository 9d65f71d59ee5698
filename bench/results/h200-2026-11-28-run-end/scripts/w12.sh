#!/bin/bash
# Call 12 (one H200): bfs, sssp and wcc on one GPU release their frontiers' maps and the report's totalMs includes Run.finish (B: this build) against call 11's build (A: f76fb3a with finish's parts timed, .device/I); what the caller waits for beyond totalMs (after.mjs), RMAT 24 weighted, 4 runs, in turn; gpu-check of B at GPU share 1.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for c in bfs sssp wcc; do
  echo "== A $c"; ROOT=$PWD/.device/I TESSERA_NATIVE_DIR=$PWD/build/Release timeout 90 node bench/results/h200-2026-11-28-run-end/scripts/after.mjs $c /tmp/g24.tsr 4 | grep "^wall"
  echo "== B $c"; timeout 90 node bench/results/h200-2026-11-28-run-end/scripts/after.mjs $c /tmp/g24.tsr 4 | grep "^wall"
done > /tmp/o/after.txt 2>&1
timeout 120 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/gc-1.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/gc-1.txt
tar cJf $OUT/call12.tar.xz -C /tmp/o .
cat /tmp/o/after.txt; tail -n 2 /tmp/o/gc-1.txt
