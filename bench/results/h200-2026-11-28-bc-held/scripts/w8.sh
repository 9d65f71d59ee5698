#!/bin/bash
# Call 8 (one H200, build d88e948): where a GPU-only bc run's time goes: each controller call of the first and last of 4 runs (ft.mjs), RMAT 24 weighted, 4 sources (seed 48).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
PARAMS='{"sources":4,"seed":48}' timeout 90 node bench/results/h200-2026-11-28-wcc-first/scripts/ft.mjs bc /tmp/g24.tsr 4 > /tmp/o/trace.txt 2>&1
tar cJf $OUT/call8.tar.xz -C /tmp/o .
awk '/-- last run/{p=1} p' /tmp/o/trace.txt | head -150
