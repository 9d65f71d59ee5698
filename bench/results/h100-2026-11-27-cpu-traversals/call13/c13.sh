#!/bin/bash
# Session 26 call 13 (x1): EngineOptions.preload: a fresh engine's create and first three runs, with and
# without the program's kernels imported at create, bfs and wcc, 16 threads, RMAT 22, 5 processes each (interleaved).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for c in bfs wcc; do for i in 1 2 3 4 5; do for p in 0 1; do node .device/pre.mjs $c /tmp/g.tsr 16 $p >> /tmp/o/pre.txt 2>&1; done; done; done
tar cJf $OUT/all.tar.xz -C /tmp o
sort /tmp/o/pre.txt
