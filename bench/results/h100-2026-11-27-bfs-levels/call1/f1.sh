#!/bin/bash
# Session 28 call 1 (x1): THP settings, 64 MiB SAB alloc+fill microbench, GPU-only BFS/WCC/PR timeline on RMAT 24 weighted.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep -E "Model name"; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; grep -i huge /proc/meminfo; uname -r; } > /tmp/o/machine.txt 2>&1
timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1
node .device/al.mjs > /tmp/o/al-nograph.txt 2>&1
TESSERA_NO_HUGEPAGES=1 node .device/al.mjs > /tmp/o/al-nohuge.txt 2>&1
CELLS=bfs,wcc,pr timeout 200 node .device/al.mjs /tmp/g24w.tsr > /tmp/o/al.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt gen24.txt; cat al-nograph.txt al-nohuge.txt; cut -c1-400 al.txt
