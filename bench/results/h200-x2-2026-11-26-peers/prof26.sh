#!/bin/bash
# Profile RMAT 25 GPU-only on 1 and 2 GPUs with run times per superstep; this build (staged copies
# lock nothing) against 141df0c (before: staged copies, buffers still locked on their second copy).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && for l in node_modules build native package.json; do ln -sfn "$PWD/$l" /tmp/before/$l; done
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  NGPUS=1,2 CELLS=pr,bfs,wcc RUNS=5 timeout 100 node .device/mgpu.mjs /tmp/before /tmp/g.tsr | sed "s/^{/{\"build\":\"before\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  NGPUS=1,2 CELLS=pr,bfs,wcc RUNS=5 REPORTS=$OUT/reports.jsonl timeout 100 node .device/mgpu.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"after\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
gzip -f $OUT/reports.jsonl
cd $OUT && tar czf more.tgz speed.err gen.txt && rm -f speed.err gen.txt && cd - >/dev/null
cat $OUT/machine.txt; cut -c1-160 $OUT/speed.jsonl
