#!/bin/bash
# Session 35 call 14 (nvidia-h100-x1): wcc's Afforest as one team (aff_team: its passes as Team.loop)
# against its supersteps (TESSERA_TEAM=0) on RMAT 22: labels against the reference, tl.mjs 30 warm
# runs in turn (3 rounds), the harness against GAPBS both ways.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -x /tmp/gapbs/cc ] || { rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/wcheck.mjs /tmp/g.tsr 3 16 > /tmp/o/check.txt 2>&1
for r in 1 2 3; do
  node .device/tl.mjs wcc /tmp/g.tsr 30 > /tmp/o/tl-team-$r.txt 2>&1
  TESSERA_TEAM=0 node .device/tl.mjs wcc /tmp/g.tsr 30 > /tmp/o/tl-steps-$r.txt 2>&1
done
timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs wcc,bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-team --no-progress > /tmp/o/harness-team.txt 2>&1
TESSERA_TEAM=0 timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs wcc,bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-steps --no-progress > /tmp/o/harness-steps.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
tail -2 /tmp/o/check.txt; for f in /tmp/o/tl*.txt; do echo "== $f $(sed -n 2p $f)"; done; for f in /tmp/o/harness-*/*/results.md; do echo "$f"; grep -h '| gapbs (16' $f; done
