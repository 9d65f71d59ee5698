#!/bin/bash
# Session 35 call 12 (nvidia-h100-x1): bfs's team with each level one Team.loop, which waits for the
# work, not for late threads; depths against the reference, tl.mjs 30 warm runs team (TESSERA_TEAM=1)
# and supersteps in turn (2 rounds), the harness against GAPBS both ways (steps listed first).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -x /tmp/gapbs/bfs ] || { cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
TESSERA_TEAM=1 node .device/check.mjs /tmp/g.tsr 3 16 > /tmp/o/check.txt 2>&1
for r in 1 2; do
  TESSERA_TEAM=1 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-team-$r.txt 2>&1
  node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-steps-$r.txt 2>&1
done
TESSERA_TEAM=1 timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-team --no-progress > /tmp/o/harness-team.txt 2>&1
timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-steps --no-progress > /tmp/o/harness-steps.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
tail -1 /tmp/o/check.txt; for f in /tmp/o/tl*.txt; do echo "== $f"; sed -n 1,2p $f | cut -c1-200; done; grep -h "| bfs | gapbs (16" /tmp/o/harness-*/*/results.md
