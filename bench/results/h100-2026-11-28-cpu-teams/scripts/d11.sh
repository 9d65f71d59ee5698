#!/bin/bash
# Session 35 call 11 (nvidia-h100-x1, the landed build 54c7f3c): garbage collections during warm
# bfs runs (--trace-gc, 60 runs), and a larger young generation (--max-semi-space-size=32, MB;
# V8 flags reach the worker isolates too), supersteps and team (TESSERA_TEAM=1), 30 runs each.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node --trace-gc .device/tl.mjs bfs /tmp/g.tsr 60 > /tmp/o/gc.txt 2>&1
for r in 1 2; do
  node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-steps-$r.txt 2>&1
  node --max-semi-space-size=32 .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-steps-semi32-$r.txt 2>&1
  TESSERA_TEAM=1 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-team-$r.txt 2>&1
  TESSERA_TEAM=1 node --max-semi-space-size=32 .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-team-semi32-$r.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
grep -c Scavenge /tmp/o/gc.txt; grep -c Mark /tmp/o/gc.txt; grep -E "Scavenge|Mark" /tmp/o/gc.txt | awk '{print $1}' | sort | uniq -c | sort -rn | head -5; grep -E "Scavenge|Mark" /tmp/o/gc.txt | tail -8 | cut -c1-160; grep median /tmp/o/gc.txt; for f in /tmp/o/tl*.txt; do echo "== $f $(sed -n 2p $f)"; done
