#!/bin/bash
# Session 28 call 9 (x1): pools filled at create for the preloaded program: a fresh process's first GPU-only run (RMAT 24),
# before (7e821d2) / after, two rounds; gpu-check share 1 (RMAT 20) of the after build.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o /tmp/B; mkdir -p /tmp/B /tmp/o && tar xJf .device/before2-dist.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/ && mkdir -p /tmp/B/build && cp -r build/Release /tmp/B/build/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24w.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1
for round in 1 2; do for b in before after; do
  R=$PWD; [ $b = before ] && R=/tmp/B
  ROOT=$R FIRST=1 CELLS=bfs,wcc,pr RUNS=4 timeout 100 node .device/rt.mjs /tmp/g24w.tsr > /tmp/o/rt-$b-$round.txt 2>&1
  echo "$b $round $(grep -E 'create ms|cell' /tmp/o/rt-$b-$round.txt | tr '\n' ' ')" >> /tmp/o/sum.txt
done; done
timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json /tmp/o/gc1.json > /tmp/o/gc1.txt 2>&1; echo "gpu-check 1 rc=$?" >> /tmp/o/machine.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; cat /tmp/o/sum.txt; tail -1 /tmp/o/gc1.txt
