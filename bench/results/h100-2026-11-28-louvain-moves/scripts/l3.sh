#!/bin/bash
# Session 37 call 3: louvain, A (f2672f6) against B (this build: batched moves, the stamp fix, the view filled in place),
# RMAT 16 and 18 weighted, one engine of 16 threads; then the graphology harness (louvain) with each build.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
tar xJf .device/graph-mods.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules; tar xJf .device/A.tar.xz -C .device; ln -sfn /tmp/node_modules .device/A/node_modules
export TESSERA_NATIVE_FLAVOR=host
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
A() { TESSERA_NATIVE_DIR=$ROOT/.device/A/build/Release "$@"; }
for r in 1 2; do
  echo "== A" >> /tmp/o/runs16.txt; A node .device/A/x/lv-s.mjs rmat:16:weighted 16 4194304 >> /tmp/o/runs16.txt 2>&1
  echo "== B" >> /tmp/o/runs16.txt; node .device/lv-s.mjs rmat:16:weighted 16 4194304 >> /tmp/o/runs16.txt 2>&1
done
for r in 1 2; do
  echo "== A" >> /tmp/o/runs16r.txt; A node .device/A/x/lv-r.mjs rmat:16:weighted 16 15 >> /tmp/o/runs16r.txt 2>&1
  echo "== B" >> /tmp/o/runs16r.txt; node .device/lv-r.mjs rmat:16:weighted 16 15 >> /tmp/o/runs16r.txt 2>&1
done
echo "== A" >> /tmp/o/runs18.txt; A node .device/A/x/lv-s.mjs rmat:18:weighted 16 4194304 >> /tmp/o/runs18.txt 2>&1
echo "== B" >> /tmp/o/runs18.txt; node .device/lv-s.mjs rmat:18:weighted 16 4194304 >> /tmp/o/runs18.txt 2>&1
timeout 150 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/o/harness-B --no-progress > /tmp/o/harness-B.txt 2>&1
A timeout 150 node .device/A/dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/o/harness-A --no-progress > /tmp/o/harness-A.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/runs16.txt /tmp/o/runs16r.txt /tmp/o/runs18.txt; for f in /tmp/o/harness-*/*/results.md /tmp/o/harness-*/results.md; do [ -f $f ] && { echo "$f"; grep -h "louvain\|RMAT" $f | head -12; }; done; tail -3 /tmp/o/harness-*.txt
