#!/bin/bash
# Session 26 call 12 (x1): main-thread profiles (self and inclusive) of 40 warm CPU-only runs of bfs and wcc, 16 threads, RMAT 22.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for c in bfs wcc; do
  node .device/mainprof.mjs $c /tmp/g.tsr 16 40 /tmp/$c.cpuprofile > /tmp/o/mainprof-$c.txt 2>&1
  python3 .device/incl.py /tmp/$c.cpuprofile >> /tmp/o/mainprof-$c.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; for c in bfs wcc; do head -1 mainprof-$c.txt; done; sed -n '/--- inclusive/,$p' mainprof-bfs.txt | head -60
