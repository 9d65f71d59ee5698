#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
if [ ! -x /tmp/gapbs/pr ]; then rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp pr; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1; fi
t0=$(date +%s)
timeout 400 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/bres --no-progress > /tmp/o/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/bres/*/ | head -1); cp "$d"/results.md "$d"/results.json /tmp/o/ 2>/dev/null
node .device/tl2.mjs 22 bfs,wcc 8 > /tmp/o/tl.txt 2>&1
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt; grep -A8 "Peers on the same" /tmp/o/results.md | grep "^| rmat"; grep -h -A7 "median" /tmp/o/tl.txt | cut -c1-160
