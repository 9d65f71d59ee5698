#!/bin/bash
# Session 36 call 3: worker profiles of a fresh engine's first runs (build B), RMAT 22, 16 threads
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for p in bfs wcc; do
  node --cpu-prof --cpu-prof-dir=/tmp/o/prof-$p --cpu-prof-interval 100 .device/cv.mjs $p /tmp/g.tsr 4 > /tmp/o/cv-$p.txt 2>&1
  node .device/cv.mjs $p /tmp/g.tsr 4 > /tmp/o/cv-$p-noprof.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/cv-*.txt
