#!/bin/bash
# Call 12 (x1): the harness with this build (d82266c): RMAT 22 CPU-only beside GAPBS (bench/gapbs-rmat22.yaml,
# every program), then RMAT 24 GPU-only / CPU-only beside GAPBS for sssp and pr (bench/gpu-gapbs-rmat24.yaml).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o /tmp/b22 /tmp/b24; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp pr; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1
t0=$(date +%s)
timeout 250 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/b22 --no-progress > /tmp/o/bench22.log 2>&1; echo "bench22 rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/b22/*/ | head -1); cp "$d"/results.md /tmp/o/results22.md; cp "$d"/cells.jsonl /tmp/o/cells22.jsonl
t0=$(date +%s)
timeout 300 node dist/src/cli/main.js bench --config bench/gpu-gapbs-rmat24.yaml --programs sssp,pr --peer gapbs=/tmp/gapbs --out-dir /tmp/b24 --no-progress > /tmp/o/bench24.log 2>&1; echo "bench24 rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/b24/*/ | head -1); cp "$d"/results.md /tmp/o/results24.md; cp "$d"/cells.jsonl /tmp/o/cells24.jsonl
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt
for f in /tmp/o/results22.md /tmp/o/results24.md; do grep "^| rmat" $f | cut -d'|' -f2-9; grep -A12 "Peers on the same" $f | grep "^| rmat"; done
