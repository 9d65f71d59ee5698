#!/bin/bash
# Where the coordinator's thread spends warm runs of bfs and wcc on RMAT 25, one GPU owning every vertex.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
timeout 100 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1
mkdir -p /tmp/prof
for c in bfs wcc; do timeout 100 node .device/prof27.mjs "$PWD" /tmp/g.tsr $c /tmp/prof/$c.cpuprofile >> $OUT/speed.txt 2>&1; done
NGPU=2 timeout 100 node .device/prof27.mjs "$PWD" /tmp/g.tsr bfs /tmp/prof/bfs2.cpuprofile >> $OUT/speed.txt 2>&1
for c in bfs wcc bfs2; do python3 .device/prof27.py /tmp/prof/$c.cpuprofile > $OUT/top-$c.txt 2>&1; done
cat $OUT/speed.txt; head -40 $OUT/top-bfs.txt; head -25 $OUT/top-wcc.txt; head -30 $OUT/top-bfs2.txt
