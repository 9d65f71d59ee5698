#!/bin/bash
# Session 28 call 8 (x1): a fresh process's first GPU-only run (RMAT 24, program preloaded): every controller call of run 1, lazy vs eager CUDA module loading.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1
for m in lazy eager lazy eager; do
  if [ $m = eager ]; then export CUDA_MODULE_LOADING=EAGER; else unset CUDA_MODULE_LOADING; fi
  FIRST=1 CELLS=bfs,wcc,pr RUNS=4 timeout 100 node .device/rt.mjs /tmp/g24w.tsr > /tmp/o/rt-$m.txt 2>&1
  echo "$m $(grep -E 'create ms|cell' /tmp/o/rt-$m.txt | tr '\n' ' ')" >> /tmp/o/sum.txt
done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/sum.txt
grep -v "receive\|send\|bitmap\|residentNames" /tmp/o/rt-lazy.txt | sed -n '/first run/,/last run/p' | head -60
