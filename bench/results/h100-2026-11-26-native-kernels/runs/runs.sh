#!/bin/bash
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
node .device/runs.mjs rmat:22:weighted bfs 6 > $OUT/runs-bfs.txt 2>&1
node .device/runs.mjs rmat:22:weighted wcc 5 > $OUT/runs-wcc.txt 2>&1
cat $OUT/runs-bfs.txt $OUT/runs-wcc.txt
