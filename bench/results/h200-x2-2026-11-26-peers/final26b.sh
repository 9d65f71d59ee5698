#!/bin/bash
# GPU pulls count their activations' out-edges (countNext), out-degrees up at load; gpu-check on 2 GPUs (0.5)
# and 1 GPU (0.5: bfs, pr and the operator fixtures; 1: wcc, bfs, pr); RMAT 25 1 vs 2 GPUs against e50bcfa.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && for l in node_modules build native package.json; do ln -sfn "$PWD/$l" /tmp/before/$l; done
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 200 node scripts/gpu-check.mjs --gpus 2 --scale 20 --no-bench --snap .device/snap --json $OUT/gc2.json > $OUT/gc2.txt 2>&1; echo "gpu-check 2 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 120 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --programs bfs,pr --module dist/test/fixtures/operators/programs.js --json $OUT/gc1.json > $OUT/gc1.txt 2>&1; echo "gpu-check 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 120 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --programs wcc,bfs,pr --gpu-share 1 --json $OUT/gc1-all.json > $OUT/gc1-all.txt 2>&1; echo "gpu-check 1 share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
true
t0=$(date +%s)
for round in 1 2; do
  NGPUS=1,2 CELLS=wcc,pr,bfs RUNS=5 timeout 100 node .device/mgpu.mjs /tmp/before /tmp/g.tsr | sed "s/^{/{\"build\":\"before\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  NGPUS=1,2 CELLS=wcc,pr,bfs RUNS=5 REPORTS=$OUT/reports.jsonl timeout 100 node .device/mgpu.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"after\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
gzip -f $OUT/reports.jsonl
cd $OUT && tar czf checks.tgz gc2.json gc1.json gc1-all.json gc2.txt gc1.txt gc1-all.txt speed.err gen.txt && rm -f gc2.json gc1.json gc1-all.json speed.err gen.txt && cd - >/dev/null
cat $OUT/machine.txt; tail -1 $OUT/gc2.txt $OUT/gc1.txt $OUT/gc1-all.txt; cut -c1-120 $OUT/speed.jsonl
