#!/bin/bash
# Call 11 (one H200, build f76fb3a with Run.finish's parts timed: .device/I): what a GPU-only run's caller waits for after the report's totalMs (after.mjs), bfs, wcc, sssp, pr, bc, RMAT 24 weighted, 4 runs each.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for c in bfs wcc sssp pr bc; do P='{}'; [ $c = bc ] && P='{"sources":4,"seed":48}'; echo "== $c"; PARAMS=$P ROOT=$PWD/.device/I TESSERA_NATIVE_DIR=$PWD/build/Release timeout 90 node bench/results/h200-2026-11-28-run-end/scripts/after.mjs $c /tmp/g24.tsr 4 | grep "^wall\|^create"; done > /tmp/o/after.txt 2>&1
tar cJf $OUT/call11.tar.xz -C /tmp/o .
cat /tmp/o/after.txt
