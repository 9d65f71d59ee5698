#!/bin/bash
# Session 26 call 3 (x1): after the broadcast gang + affFinal page loop: probe (per-thread wake / busy per
# dispatch) at 16 and 15 threads; tl.mjs timelines of bfs and wcc at 16 and 15 threads (RMAT 22, 30 runs).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for t in 16 15; do ROOT=$PWD/.device/probe node .device/probe/gp.mjs /tmp/g.tsr $t > /tmp/o/gp-$t.txt 2>&1; done
for t in 16 15; do for c in bfs wcc; do TL_THREADS=$t node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c-$t.txt 2>&1; done; done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; for f in gp-*.txt; do echo "== $f"; cut -c1-400 $f; done; for f in tl-*.txt; do echo "== $f"; head -9 $f | cut -c1-250; done
