#!/bin/bash
# Session 26 call 6 (x1): wcc with per-vertex tasks (dist) vs edge-cut tasks (probe dist), interleaved,
# tl 30 runs x 2 each at 16 threads; early.mjs runs 2-4 for bfs and wcc (3 fresh processes each).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for i in 1 2; do
  ROOT=$PWD node .device/tl.mjs wcc /tmp/g.tsr 30 > /tmp/o/tl-wcc-vertex-$i.txt 2>&1
  ROOT=$PWD/.device/probe node .device/tl.mjs wcc /tmp/g.tsr 30 > /tmp/o/tl-wcc-edge-$i.txt 2>&1
done
for c in bfs wcc; do for i in 1 2 3; do ROOT=$PWD node .device/early.mjs $c /tmp/g.tsr 16 /tmp/w.json > /tmp/o/early-$c-$i.txt 2>&1; done; done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; for f in tl-*.txt; do echo "== $f"; sed -n 2,5p $f | cut -c1-220; done; for f in early-*.txt; do head -1 $f; done
