#!/bin/bash
# After: no page-locks where copies are staged (1 MiB and up), flags counted by the kernels, bfs's
# pull levels keep depth as an owner array. gpu-check (2 GPUs at 0.5; 1 GPU at 0.5 for bfs, pr and
# the operator fixtures); RMAT 25 GPU-only 1 vs 2 GPUs against 141df0c (before) in the same call.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && for l in node_modules build native package.json; do ln -sfn "$PWD/$l" /tmp/before/$l; done
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 200 node scripts/gpu-check.mjs --gpus 2 --scale 20 --no-bench --snap .device/snap --json $OUT/gpu-check-2.json > $OUT/gpu-check-2.txt 2>&1; echo "gpu-check 2 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 200 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --programs bfs,pr --module dist/test/fixtures/operators/programs.js --json $OUT/gpu-check-1.json > $OUT/gpu-check-1.txt 2>&1; echo "gpu-check 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  NGPUS=1,2 CELLS=pr,bfs,wcc RUNS=5 timeout 100 node .device/mgpu.mjs /tmp/before /tmp/g.tsr | sed "s/^{/{\"build\":\"before\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  NGPUS=1,2 CELLS=pr,bfs,wcc RUNS=5 REPORTS=$OUT/reports.jsonl timeout 100 node .device/mgpu.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"after\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
gzip -f $OUT/reports.jsonl
cd $OUT && tar czf more.tgz speed.err gen.txt gpu-check-1.json gpu-check-2.json && rm -f speed.err gen.txt gpu-check-1.json gpu-check-2.json && cd - >/dev/null
cat $OUT/machine.txt; tail -2 $OUT/gpu-check-2.txt $OUT/gpu-check-1.txt; cut -c1-120 $OUT/speed.jsonl
