#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
[ -f /tmp/g24w.tsr ] || timeout 120 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > $OUT/gen.txt 2>&1
for p in bfs wcc sssp; do timeout 120 node .device/calls28.mjs $PWD /tmp/g24w.tsr $p >> $OUT/calls.jsonl 2>> $OUT/calls.err; done
cat $OUT/calls.jsonl
