#!/bin/bash
# Session 35 call 6 (nvidia-h100-x1): are the team's 2 ms barriers threads sharing a CPU? Worker
# threads bound one a CPU (TESSERA_PIN=1) or not, barriers spinning 2 ms or 0.05 ms
# (TESSERA_TEAM_SPIN_MS, an experiment's knob), against the supersteps; tl.mjs 30 warm runs each.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
TESSERA_PIN=1 node .device/check.mjs /tmp/g.tsr 3 16 > /tmp/o/check.txt 2>&1
TESSERA_PIN=1 TESSERA_TEAM_TRACE=1 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/trace-pin.txt 2>&1
for r in 1 2; do
  TESSERA_PIN=1 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-pin-spin2-$r.txt 2>&1
  TESSERA_PIN=1 TESSERA_TEAM_SPIN_MS=0.05 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-pin-spin005-$r.txt 2>&1
  TESSERA_TEAM_SPIN_MS=0.05 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-nopin-spin005-$r.txt 2>&1
  TESSERA_PIN=1 TESSERA_TEAM=0 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-pin-steps-$r.txt 2>&1
  TESSERA_TEAM=0 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-nopin-steps-$r.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
tail -1 /tmp/o/check.txt; grep clear /tmp/o/trace-pin.txt | tail -3; for f in /tmp/o/tl*.txt; do echo "== $f $(sed -n 2p $f)"; sed -n 4p $f | cut -c1-200; done
