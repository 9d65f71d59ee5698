#!/bin/bash
# Session 26 call 8 (x1): bfs pulls reading the frontier as bits (dist) vs bytes (probe dist), interleaved:
# tl 30 runs x 2 each and early.mjs runs 2-4 x 3 each at 16 threads, RMAT 22.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for i in 1 2; do
  ROOT=$PWD node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-bits-$i.txt 2>&1
  ROOT=$PWD/.device/probe node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-bytes-$i.txt 2>&1
done
for i in 1 2 3; do
  ROOT=$PWD node .device/early.mjs bfs /tmp/g.tsr 16 /tmp/w.json > /tmp/o/early-bits-$i.txt 2>&1
  ROOT=$PWD/.device/probe node .device/early.mjs bfs /tmp/g.tsr 16 /tmp/w.json > /tmp/o/early-bytes-$i.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; for f in tl-*.txt; do echo "== $f"; sed -n 2,7p $f | cut -c1-200; done; for f in early-*.txt; do echo "$f $(head -1 $f)"; done
