#!/bin/bash
# Issue 21 on the H100 host's CPU: tessera 1S (16 threads) vs GAPBS (16 OpenMP threads), RMAT 22.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > $OUT/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp pr; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > $OUT/gapbs-build.txt 2>&1; ls /tmp/gapbs >> $OUT/machine.txt
t0=$(date +%s)
timeout 480 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/bres --no-progress > $OUT/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
d=$(ls -dt /tmp/bres/*/ | head -1); cp "$d"/results.md "$d"/results.json $OUT/ 2>/dev/null
cat $OUT/machine.txt; tail -5 $OUT/bench.log; sed -n 1,60p $OUT/results.md
