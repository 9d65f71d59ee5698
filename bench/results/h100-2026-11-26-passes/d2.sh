#!/bin/bash
# Call 2 (x1): where CPU BFS's time goes on 16 threads (RMAT 22: per-superstep report, main and
# worker CPU profiles), GPU-only bfs/wcc RMAT 24 per-superstep reports.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
(timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1) &
timeout 60 node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22w.tsr > /tmp/o/gen22.txt 2>&1
for p in bfs wcc sssp; do timeout 60 node .device/cpubfs.mjs /tmp/g22w.tsr $p 12 > /tmp/o/cpu-$p.txt 2>&1; done
rm -rf /tmp/prof; timeout 60 node --cpu-prof --cpu-prof-dir=/tmp/prof .device/cpubfs.mjs /tmp/g22w.tsr bfs 30 > /tmp/o/cpu-bfs-prof.txt 2>&1
wait
CONFIGS=1 CELLS=bfs,wcc RUNS=5 REPORTS=/tmp/o/reports24.jsonl timeout 100 node .device/mg26.mjs $PWD /tmp/g24w.tsr > /tmp/o/gpu24.jsonl 2>&1
DEV=$PWD/.device; cd /tmp/prof && for f in *.cpuprofile; do python3 $DEV/topprof.py $f 25 > /tmp/o/top-$f.txt 2>&1 || python3 $OLDPWD/.device/topprof.py $f 25 > /tmp/o/top-$f.txt; done; cd - >/dev/null
tar cJf $OUT/all.tar.xz -C /tmp o prof
cat /tmp/o/machine.txt; cat /tmp/o/cpu-*.txt | cut -c1-400; cut -c1-900 /tmp/o/gpu24.jsonl
