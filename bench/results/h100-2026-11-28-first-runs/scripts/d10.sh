#!/bin/bash
# Session 36 call 10: profiles (main and workers) of a fresh engine's wcc runs, build 3b50693, RMAT 22, 16 threads
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/cv.mjs wcc /tmp/g.tsr 4 > /tmp/o/cv-noprof.txt 2>&1
MARK=1 node --cpu-prof --cpu-prof-dir=/tmp/o/prof --cpu-prof-interval 100 .device/cv.mjs wcc /tmp/g.tsr 4 > /tmp/o/cv.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/cv-noprof.txt /tmp/o/cv.txt
