#!/bin/bash
# Session 36 call 6: a fresh engine's runs 0-11 (build C, RMAT 22, 16 threads) by V8 tiering and GC flags
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for r in 1 2; do for p in bfs wcc; do
  for f in "" "--max-opt=1" "--maglev --max-opt=2" "--v8-pool-size=1" "--single-threaded-gc"; do
    echo "## $p round $r flags '$f'" >> /tmp/o/cv.txt
    node $f .device/cv.mjs $p /tmp/g.tsr 12 >> /tmp/o/cv.txt 2>&1
  done
done; done
tar cJf $OUT/all.tar.xz -C /tmp o
grep -E "^##|^[0-9]+ " /tmp/o/cv.txt | awk '/^##/{if(l)print l; l=$0; next}{split($0,a," "); l=l" "a[2]} END{print l}'
