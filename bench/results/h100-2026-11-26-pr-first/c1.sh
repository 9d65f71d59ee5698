#!/bin/bash
# Call 1 (x1): gpu-check 1 GPU at share 1 (the review's native refactor + pr's first iteration from
# the out-degrees); pr before (fb75a86) / after on RMAT 24 weighted GPU-only, two rounds; per-call
# timing and a main-thread CPU profile of warm pr runs; cuSPARSE anchor.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/B && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn $PWD/build /tmp/B/build && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 120 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json $OUT/gc1.json > $OUT/gc1.txt 2>&1; echo "gpu-check 1 share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    REP=/dev/null; [ $b = after ] && [ $round = 2 ] && REP=$OUT/reports.jsonl
    CONFIGS=1 CELLS=pr RUNS=5 REPORTS=$REP timeout 100 node .device/mg26.mjs "$R" /tmp/g24w.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "before/after $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 100 node --cpu-prof --cpu-prof-dir=/tmp/prof .device/calls28.mjs $PWD /tmp/g24w.tsr pr > $OUT/calls.jsonl 2>> $OUT/calls.err
(cd /tmp/prof && ls -S | head -1 | xargs -I{} cp {} /tmp/main.cpuprofile)
timeout 90 python3 .device/gpu_anchors.py 24 > $OUT/anchors.txt 2>&1
rm -f $OUT/gc1.json
tar cJf $OUT/extra.tar.xz -C /tmp main.cpuprofile 2>/dev/null; gzip -f $OUT/reports.jsonl
cat $OUT/machine.txt; tail -n 1 $OUT/gc1.txt; grep -v Warn $OUT/anchors.txt | grep GTEPS; cat $OUT/calls.jsonl | cut -c1-600
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['cell'],r['medianMs'],r['runs'])
PY
