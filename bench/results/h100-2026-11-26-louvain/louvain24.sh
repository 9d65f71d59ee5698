#!/bin/bash
# Issue 24: the louvain harness (bench/louvain.yaml) on the GPU host's CPU (1S = every core),
# tessera against graphology-communities-louvain; each cell in its own process.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && tar xJf .device/graphology.tar.xz -C /tmp/node_modules && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nproc; lscpu | grep -i "model name"; free -g | head -2; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 420 node dist/src/cli/main.js bench --config bench/louvain.yaml --no-progress --out-dir /tmp/lb > $OUT/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cp /tmp/lb/*/results.json /tmp/lb/*/results.md $OUT/ 2>/dev/null
cat $OUT/machine.txt; tail -20 $OUT/bench.log; grep -A 12 -i "modularity" $OUT/results.md | head -20
