#!/bin/bash
# Session 30 call 3: main-thread CPU profiles of PageRank on RMAT 25 resident, 1 GPU and 2 GPUs (P), this build.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
mkdir -p /tmp/prof
for c in 1 2p; do
  CONFIGS=$c CELLS=pr RUNS=12 REPORTS=$OUT/reports-$c.jsonl timeout 150 node --cpu-prof --cpu-prof-interval 50 --cpu-prof-dir=/tmp/prof/$c .device/mg26.mjs "$PWD" /tmp/g.tsr >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
cd /tmp/prof && tar czf $OUT/prof.tgz . && cd - > /dev/null
cd $OUT && gzip -f reports-*.jsonl && ls -la $OUT && cat machine.txt speed.jsonl | cut -c1-300
