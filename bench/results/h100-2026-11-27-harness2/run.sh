#!/bin/bash
# Session 27 call 7 (x1): the session's build: harness RMAT 22 (bfs, wcc, sssp, pr, bc) against GAPBS on the
# 16 cores; the library's generate() of RMAT 24 weighted (3 runs); gpu-check at share 1.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; git log --oneline -1; uptime; } > /tmp/o/machine.txt 2>&1
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc sssp pr bc >/dev/null 2>&1)
timeout 330 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness --no-progress > /tmp/o/harness.txt 2>&1; echo "harness rc=$?" >> /tmp/o/machine.txt
node --expose-gc .device/bpa.mjs rmat:24:weighted 3 > /tmp/o/bpa.txt 2>&1
timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json /tmp/o/gc1.json > /tmp/o/gc1.txt 2>&1; echo "gpu-check 1 rc=$?" >> /tmp/o/machine.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt | grep -v "^GPU"; grep -A9 "Peers on the same" harness/*/results.md; cat bpa.txt; tail -1 gc1.txt
