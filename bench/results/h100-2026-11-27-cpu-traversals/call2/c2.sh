#!/bin/bash
# Session 26 call 2 (x1): gang dispatch latencies on 16 threads (probe build, globalThis.__gp): no-op
# vertex maps, bfs and wcc on RMAT 22; worker spin 0 / 1 ms; 16 ports vs one BroadcastChannel post cost.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/bc2.mjs 16 > /tmp/o/bc2.txt 2>&1
for s in 0 1 0 1; do echo "spin $s" >> /tmp/o/gp.txt; PROBE_SPIN_MS=$s ROOT=$PWD/.device/probe node .device/probe/gp.mjs /tmp/g.tsr 16 >> /tmp/o/gp.txt 2>&1; done
echo "15 threads spin 1" >> /tmp/o/gp.txt; PROBE_SPIN_MS=1 ROOT=$PWD/.device/probe node .device/probe/gp.mjs /tmp/g.tsr 15 >> /tmp/o/gp.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/bc2.txt /tmp/o/gp.txt
