#!/bin/bash
# Call 10 (one H200, build f76fb3a): where GPU-only sssp (from the top hub) and PageRank (10 iterations) spend a run: each controller call of the first and last of 4 runs (ft.mjs), RMAT 24 weighted.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
timeout 90 node bench/results/h200-2026-11-28-wcc-first/scripts/ft.mjs sssp /tmp/g24.tsr 4 > /tmp/o/sssp.txt 2>&1
timeout 90 node bench/results/h200-2026-11-28-wcc-first/scripts/ft.mjs pr /tmp/g24.tsr 4 > /tmp/o/pr.txt 2>&1
tar cJf $OUT/call10.tar.xz -C /tmp/o .
for f in /tmp/o/*.txt; do echo "## $f"; sed -n 1,6p $f; awk '/-- last run/{p=1} p' $f | head -40; done
