#!/bin/bash
# Session 38 call 7 (review): the mended bfsTeam / wccTeam / bfsPush against the references on RMAT 22 (16 threads), and their times.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o7
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /dev/null 2>&1
{ ROOT=$PWD node .device/check.mjs /tmp/g22.tsr 4 16; ROOT=$PWD node .device/wcheck2.mjs /tmp/g22.tsr; ROOT=$PWD TESSERA_TEAM=0 node .device/check.mjs /tmp/g22.tsr 2 16; for p in bfs wcc; do echo "== $p"; ROOT=$PWD node .device/cv.mjs $p /tmp/g22.tsr 12; done; } > /tmp/o7/out.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o7
grep -v "^\[" /tmp/o7/out.txt | head -60
