#!/bin/bash
# Session 26 call 10 (x1): wcc's final pass skipping vertices with nothing left to link (dist) vs not
# (probe: the build before), interleaved tl 30 runs x 2 and early x 2 at 16 threads, RMAT 22.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for i in 1 2; do
  ROOT=$PWD node .device/tl.mjs wcc /tmp/g.tsr 30 > /tmp/o/tl-new-$i.txt 2>&1
  ROOT=$PWD/.device/probe node .device/tl.mjs wcc /tmp/g.tsr 30 > /tmp/o/tl-old-$i.txt 2>&1
  ROOT=$PWD node .device/early.mjs wcc /tmp/g.tsr 16 /tmp/w.json > /tmp/o/early-new-$i.txt 2>&1
  ROOT=$PWD/.device/probe node .device/early.mjs wcc /tmp/g.tsr 16 /tmp/w.json > /tmp/o/early-old-$i.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; for f in early-*.txt; do echo "$f $(head -1 $f)"; done; for f in tl-*.txt; do echo "== $f"; sed -n 2,5p $f | cut -c1-200; done
