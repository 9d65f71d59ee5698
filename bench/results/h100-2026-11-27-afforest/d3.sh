#!/bin/bash
# Call 3 (x1): the harness with this build (Afforest on the GPU, KPages): RMAT 24 bfs and wcc
# (bench/gpu-gapbs-rmat24.yaml: GPU-only, CPU-only, GAPBS on the 16 cores).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1
t0=$(date +%s)
timeout 500 node dist/src/cli/main.js bench --config bench/gpu-gapbs-rmat24.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/b24 --no-progress > /tmp/o/bench24.log 2>&1; echo "bench24 rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/b24/*/ | head -1); cp "$d"/results.md /tmp/o/results24.md; cp "$d"/cells.jsonl /tmp/o/cells24.jsonl
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt
grep "^| rmat" /tmp/o/results24.md | cut -d'|' -f2-9; grep -A10 "Peers on the same" /tmp/o/results24.md | grep "^| rmat"
