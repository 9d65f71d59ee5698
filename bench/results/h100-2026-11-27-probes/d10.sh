#!/bin/bash
# Call 10 (x1): main-thread CPU profiles of 30 warm GPU-only runs (bfs, wcc) on RMAT 24, this build.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24w.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1
for c in bfs wcc; do timeout 100 node .device/prof.mjs $PWD /tmp/g24w.tsr $c 30 /tmp/o/$c.cpuprofile >> /tmp/o/prof.txt 2>&1; python3 .device/incl.py /tmp/o/$c.cpuprofile > /tmp/o/$c-top.txt; done
gzip /tmp/o/*.cpuprofile
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/prof.txt; head -45 /tmp/o/bfs-top.txt; sed -n 37,100p /tmp/o/bfs-top.txt
