#!/bin/bash
# Session 35 call 1 (nvidia-h100-x1, 16 cores): bfs's levels as one team of the socket's 16
# threads against its supersteps (TESSERA_TEAM=0) and GAPBS on RMAT 22: depths against the serial
# reference from 4 sources, tl.mjs warm runs (3 rounds alternating), the harness both ways.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1)
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/check.mjs /tmp/g.tsr 4 16 > /tmp/o/check.txt 2>&1
for r in 1 2 3; do
  node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-team-$r.txt 2>&1
  TESSERA_TEAM=0 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-steps-$r.txt 2>&1
done
timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-team --no-progress > /tmp/o/harness-team.txt 2>&1
TESSERA_TEAM=0 timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-steps --no-progress > /tmp/o/harness-steps.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt /tmp/o/check.txt; for f in /tmp/o/tl*.txt; do echo "== $f"; head -3 $f | cut -c1-300; done; grep -A8 "Peers on the same" /tmp/o/harness-*/*/results.md
