#!/bin/bash
# Session 39 call 11: louvain's view merge in C++ (cpu.louvainFillNative): a fresh engine's runs 1-12 on RMAT 16 (16 threads), two engines, and one engine's 15 runs with the modularity note.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host
rm -rf /tmp/o; mkdir -p /tmp/o; nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt; nvidia-smi -L >> /tmp/o/machine.txt 2>&1
for r in 1 2; do echo "## louvain round $r B" >> /tmp/o/cv.txt; node .device/cvp.mjs louvain 16 12 >> /tmp/o/cv.txt 2>&1; done
node .device/lvq.mjs rmat:16:weighted 16 15 > /tmp/o/lvq.txt 2>&1
cat /tmp/o/machine.txt /tmp/o/cv.txt /tmp/o/lvq.txt > $OUT/cv.txt
cat /tmp/o/machine.txt; python3 .device/cvsum.py /tmp/o/cv.txt; cat /tmp/o/lvq.txt; grep -A3 "round 1 B" /tmp/o/cv.txt | cut -c1-90
