#!/bin/bash
# Session 26 call 15 (x1): page faults, system time and context switches of runs 1-4 of a fresh engine
# (program preloaded), wcc and bfs, 16 threads, RMAT 22; THP counters before and after.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
grep -E "thp_fault_alloc|thp_fault_fallback|thp_collapse_alloc|compact_stall" /proc/vmstat > /tmp/o/vmstat-before.txt
for c in wcc bfs wcc bfs; do node .device/faults.mjs $c /tmp/g.tsr 16 >> /tmp/o/faults.txt 2>&1; done
grep -E "thp_fault_alloc|thp_fault_fallback|thp_collapse_alloc|compact_stall" /proc/vmstat > /tmp/o/vmstat-after.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/faults.txt; paste /tmp/o/vmstat-before.txt /tmp/o/vmstat-after.txt
