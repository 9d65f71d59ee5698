#!/bin/bash
# Session 36 call 1: a fresh engine's first runs (bfs, wcc on RMAT 22, 16 threads) by V8 flag
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
nproc > /tmp/o/machine.txt; lscpu | grep -E 'Model name|NUMA|Thread' >> /tmp/o/machine.txt
for p in bfs wcc; do
for r in 1 2; do
  for f in "" "--interrupt-budget=8192" "--always-sparkplug" "--no-concurrent-recompilation" "--v8-pool-size=16" "--max-semi-space-size=64"; do
    echo "## $p round $r flags '$f'" >> /tmp/o/cv.txt
    node $f .device/cv.mjs $p /tmp/g.tsr 10 >> /tmp/o/cv.txt 2>&1
  done
  echo "## $p round $r TESSERA_TEAM=0" >> /tmp/o/cv.txt
  TESSERA_TEAM=0 node .device/cv.mjs $p /tmp/g.tsr 10 >> /tmp/o/cv.txt 2>&1
done
done
cp /tmp/o/cv.txt $OUT/; cp /tmp/o/machine.txt $OUT/
cat /tmp/o/cv.txt | awk '/^##/{h=$0; next} {print}' | head -0
grep -E "^##|^[0-9] " /tmp/o/cv.txt | awk '/^##/{if(l)print l; l=$0; next}{split($0,a," "); l=l" "a[2]} END{print l}'
