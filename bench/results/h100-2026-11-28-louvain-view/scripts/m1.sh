#!/bin/bash
# Session 38 call 1: louvain, A (8398b9a) against B (this session: the view's merge in its pages, the aggregation's bound, the compact rounds).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
tar xJf .device/graph-mods.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules; tar xJf .device/A2.tar.xz -C .device; ln -sfn /tmp/node_modules .device/A2/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
A() { TESSERA_NATIVE_DIR=$ROOT/.device/A2/build/Release TESSERA_NATIVE_FLAVOR=host "$@"; }
rm -rf /tmp/o; mkdir -p /tmp/o
nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt; nvidia-smi -L >> /tmp/o/machine.txt 2>&1
cp dist/src/programs/louvain/index.js /tmp/index.clean.js
cp .device/index-phases.js dist/src/programs/louvain/index.js
for r in 1 2; do echo "== B phases rmat16" >> /tmp/o/phases.txt; node .device/lv-p.mjs rmat:16:weighted 16 12 >> /tmp/o/phases.txt 2>&1; done
echo "== B phases rmat18" >> /tmp/o/phases.txt; node .device/lv-p.mjs rmat:18:weighted 16 6 >> /tmp/o/phases.txt 2>&1
cp /tmp/index.clean.js dist/src/programs/louvain/index.js
for r in 1 2; do
  echo "== A" >> /tmp/o/runs16.txt; A node .device/A2/x/lv-r.mjs rmat:16:weighted 16 15 >> /tmp/o/runs16.txt 2>&1
  echo "== B" >> /tmp/o/runs16.txt; node .device/lv-r.mjs rmat:16:weighted 16 15 >> /tmp/o/runs16.txt 2>&1
done
echo "== A rmat18" >> /tmp/o/runs16.txt; A node .device/A2/x/lv-r.mjs rmat:18:weighted 16 7 >> /tmp/o/runs16.txt 2>&1
echo "== B rmat18" >> /tmp/o/runs16.txt; node .device/lv-r.mjs rmat:18:weighted 16 7 >> /tmp/o/runs16.txt 2>&1
node .device/sr.mjs rmat:16:weighted > /tmp/o/sr.txt 2>&1; node .device/sr.mjs rmat:18:weighted >> /tmp/o/sr.txt 2>&1
timeout 200 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/o/harness-B --no-progress > /tmp/o/harness-B.txt 2>&1
A timeout 200 node .device/A2/dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/o/harness-A --no-progress > /tmp/o/harness-A.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt /tmp/o/phases.txt /tmp/o/runs16.txt /tmp/o/sr.txt; grep -h "louvain |" /tmp/o/harness-*/*/results.md | grep -v "^| -" | cut -c1-200; tail -3 /tmp/o/harness-*.txt
