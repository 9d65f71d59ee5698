#!/bin/bash
# Call 5 (x1): pages preloaded when the GPU actor loads (Controller::preload). gpu-check (share 1), then a
# session's first run against its warm median, GPU-only RMAT 24 bfs / wcc / pr, before (12fead5) and after, two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/B /tmp/o && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
(timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1) &
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json /tmp/o/gc1.json > /tmp/o/gc1.txt 2>&1; echo "gpu-check rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
wait
for round in 1 2; do for b in before after; do for c in bfs wcc pr; do
  R=$PWD; [ $b = before ] && R=/tmp/B
  timeout 100 node .device/warm.mjs "$R" /tmp/g24w.tsr $c 2>>/tmp/o/warm.err | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> /tmp/o/warm.jsonl
done; done; done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; tail -1 /tmp/o/gc1.txt; tail -3 /tmp/o/warm.err; cat /tmp/o/warm.jsonl
