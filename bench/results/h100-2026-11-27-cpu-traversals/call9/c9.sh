#!/bin/bash
# Session 26 call 9 (x1): skipEmpty (dist) vs not (probe dist) for bfs and wcc, interleaved: early.mjs
# runs 2-4 x 3 each and tl 30 runs at 16 threads, RMAT 22; then dist with TESSERA_NO_HUGEPAGES=1.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for c in bfs wcc; do
  for i in 1 2 3; do
    ROOT=$PWD node .device/early.mjs $c /tmp/g.tsr 16 /tmp/w.json > /tmp/o/early-$c-skip-$i.txt 2>&1
    ROOT=$PWD/.device/probe node .device/early.mjs $c /tmp/g.tsr 16 /tmp/w.json > /tmp/o/early-$c-all-$i.txt 2>&1
  done
  ROOT=$PWD node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c-skip.txt 2>&1
  ROOT=$PWD/.device/probe node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c-all.txt 2>&1
  TESSERA_NO_HUGEPAGES=1 ROOT=$PWD node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c-skip-nohuge.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; for f in early-*.txt; do echo "$f $(head -1 $f)"; done; for f in tl-*.txt; do echo "== $f"; sed -n 2,7p $f | cut -c1-200; done
