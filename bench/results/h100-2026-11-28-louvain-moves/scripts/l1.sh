#!/bin/bash
# Session 37 call 1: louvain on RMAT 16 weighted, 16 threads: warm runs, main-thread profile, the serial phases.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt
for r in 1 2; do node .device/lv-r.mjs rmat:16:weighted 16 15 > /tmp/o/runs-$r.txt 2>&1; done
node --cpu-prof --cpu-prof-dir=/tmp/o/prof .device/lv-r.mjs rmat:16:weighted 16 15 > /tmp/o/runs-prof.txt 2>&1
node .device/lv-q2.mjs rmat:16:weighted > /tmp/o/phases.txt 2>&1
node .device/lv-s.mjs rmat:16:weighted 16 0 > /tmp/o/sync.txt 2>&1
node .device/lv-q2.mjs rmat:18:weighted > /tmp/o/phases18.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt /tmp/o/runs-*.txt /tmp/o/phases.txt /tmp/o/sync.txt /tmp/o/phases18.txt
