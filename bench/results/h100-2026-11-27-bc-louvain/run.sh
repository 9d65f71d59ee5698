#!/bin/bash
# Session 27 call 1 (x1): harness bc vs GAPBS (RMAT 22); louvain breakdown on RMAT 16 + graphology cells;
# build phases of RMAT 24 on 16 threads (+ main-thread profile of one build).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; git log --oneline -1; uptime; } > /tmp/o/machine.txt 2>&1
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bc >/dev/null 2>&1)
node .device/lv.mjs 16 9 > /tmp/o/lv.txt 2>&1
timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness --no-progress > /tmp/o/harness.txt 2>&1; echo "harness rc=$?" >> /tmp/o/machine.txt
timeout 150 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/o/gs --no-progress > /tmp/o/gs.txt 2>&1; echo "gs rc=$?" >> /tmp/o/machine.txt
node --expose-gc .device/bp.mjs rmat:24:weighted 16 2 > /tmp/o/bp.txt 2>&1
mkdir -p /tmp/o/prof && node --cpu-prof --cpu-prof-dir=/tmp/o/prof .device/bp.mjs rmat:24:weighted 16 1 >> /tmp/o/bp.txt 2>&1
for f in /tmp/o/prof/*.cpuprofile; do echo "== $f"; node .device/topprof.mjs $f 25; done > /tmp/o/prof.txt 2>&1
rm -rf /tmp/o/prof
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt | grep -v "^GPU"; cat lv.txt; grep -B2 -A8 "Peers on the same" harness/*/results.md gs/*/results.md | cut -c1-300; cat bp.txt; head -30 prof.txt
