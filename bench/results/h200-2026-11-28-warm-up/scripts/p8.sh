#!/bin/bash
# Session 39 call 8: where louvain's first run (RMAT 16, 16 threads) spends its time: --cpu-prof of a process making one engine and one run, the main thread and the busiest workers.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host
rm -rf /tmp/o /tmp/prof /tmp/prof6; mkdir -p /tmp/o
node --cpu-prof --cpu-prof-dir=/tmp/prof .device/cvp.mjs louvain 16 1 > /tmp/o/run1.txt 2>&1
node --cpu-prof --cpu-prof-dir=/tmp/prof6 .device/cvp.mjs louvain 16 8 > /tmp/o/run8.txt 2>&1
python3 .device/profsum.py /tmp/prof 30 > /tmp/o/prof1.txt; python3 .device/profsum.py /tmp/prof6 30 > /tmp/o/prof8.txt
cp /tmp/o/*.txt $OUT/
cat /tmp/o/run1.txt /tmp/o/run8.txt | cut -c1-100; head -40 /tmp/o/prof1.txt; head -36 /tmp/o/prof8.txt
