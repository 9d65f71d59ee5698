#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
tar xJf .device/A3.tar.xz -C /tmp; ln -sfn /tmp/node_modules /tmp/A3/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
A() { ROOT=/tmp/A3 TESSERA_NATIVE_DIR=/tmp/A3/build/Release TESSERA_NATIVE_FLAVOR=host "$@"; }
rm -rf /tmp/o; mkdir -p /tmp/o; nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt; nvidia-smi -L >> /tmp/o/machine.txt 2>&1
node .device/mv.mjs rmat:16:weighted > /tmp/o/mv.txt 2>&1
node .device/lvprof.mjs rmat:16:weighted > /tmp/o/prof16.txt 2>&1
for r in 1 2; do
  echo "== A rmat16" >> /tmp/o/runs.txt; A node .device/lvq.mjs rmat:16:weighted 16 15 >> /tmp/o/runs.txt 2>&1
  echo "== B rmat16" >> /tmp/o/runs.txt; node .device/lvq.mjs rmat:16:weighted 16 15 >> /tmp/o/runs.txt 2>&1
done
echo "== A rmat18" >> /tmp/o/runs.txt; A node .device/lvq.mjs rmat:18:weighted 16 5 >> /tmp/o/runs.txt 2>&1
echo "== B rmat18" >> /tmp/o/runs.txt; node .device/lvq.mjs rmat:18:weighted 16 5 >> /tmp/o/runs.txt 2>&1
node .device/mv.mjs rmat:18:weighted >> /tmp/o/mv.txt 2>&1
timeout 240 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/o/harness-B --no-progress > /tmp/o/harness-B.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt /tmp/o/mv.txt /tmp/o/prof16.txt /tmp/o/runs.txt; grep -h "louvain |" /tmp/o/harness-*/*/results.md | grep -v "^| -" | cut -c1-220; tail -3 /tmp/o/harness-*.txt
