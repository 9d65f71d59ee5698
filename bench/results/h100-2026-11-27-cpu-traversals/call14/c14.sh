#!/bin/bash
# Session 26 call 14 (x1): profiles of the FIRST run of a fresh engine (bfs, wcc; 16 threads, RMAT 22,
# the program preloaded at create): main thread and workers, samples inside run 1 only.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for c in bfs wcc; do
  rm -rf /tmp/p-$c; mkdir -p /tmp/p-$c; cd /tmp/p-$c
  PRELOAD=1 FIRST=1 node --cpu-prof --cpu-prof-interval 50 $ROOT/.device/early.mjs $c /tmp/g.tsr 16 /tmp/p-$c/win.json > /tmp/o/early-$c.txt 2>&1
  main=$(ls -S *.cpuprofile | head -1)
  python3 $ROOT/.device/win.py win.json 45 $main > /tmp/o/main-$c.txt
  python3 $ROOT/.device/win.py win.json 30 $(ls *.cpuprofile | grep -v $main) > /tmp/o/workers-$c.txt
  cd $ROOT
done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; for c in bfs wcc; do head -2 early-$c.txt; head -32 main-$c.txt; head -14 workers-$c.txt; done
