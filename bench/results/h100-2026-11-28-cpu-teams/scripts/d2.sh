#!/bin/bash
# Session 35 call 2 (nvidia-h100-x1): bfs team's level trace on rank 0 (TESSERA_TEAM_TRACE, not
# committed), 16 threads, RMAT 22; the supersteps' timeline beside it.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
TESSERA_TEAM_TRACE=1 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/trace.txt 2>&1
TESSERA_TEAM=0 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/steps.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
grep clear /tmp/o/trace.txt | tail -6; grep -v clear /tmp/o/trace.txt | head -4 | cut -c1-300; head -12 /tmp/o/steps.txt | cut -c1-300
