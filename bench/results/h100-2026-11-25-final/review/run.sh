#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
for share in 0.5 1; do
timeout 120 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --programs pr,tc,lcc,bfs,sssp --module dist/test/fixtures/operators/programs.js --gpu-share $share --json /tmp/o/gc-$share.json > /tmp/o/gc-$share.txt 2>&1; echo "share $share rc=$?"; tail -1 /tmp/o/gc-$share.txt
done
tar -C /tmp -czf $OUT/o.tgz o
