#!/bin/bash
# Session 35 call 7 (nvidia-h100-x1): every rank's work and barrier waits a level (TESSERA_TEAM_TRACE,
# not committed), barriers spinning 2 ms and 0.05 ms; the last run's 16 lines of each.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
TESSERA_TEAM_TRACE=1 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/trace2.txt 2>&1
TESSERA_TEAM_SPIN_MS=0.05 TESSERA_TEAM_TRACE=1 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/trace005.txt 2>&1
top -b -n 1 -H | head -40 > /tmp/o/top.txt
tar cJf $OUT/all.tar.xz -C /tmp o
for f in trace2 trace005; do echo "== $f $(grep median /tmp/o/$f.txt)"; grep rank /tmp/o/$f.txt | tail -16 | sort; done
