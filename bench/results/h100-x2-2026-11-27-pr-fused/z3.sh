#!/bin/bash
# Session 32 call 3: pr_pull over many vertex ranges (S's dealt pages) zeroes and finishes them in one
# launch each (KPrZero, KPrFinish) instead of a memset and two launches a range. gpu-check 2 S share 1;
# RMAT 25 resident, before (bf39532) / after with 4 push groups (G4) / after with 1 (G1), 1 vs 2P vs 2S, pr.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before32.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench --json $OUT/gc2s.json > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  for b in before G4 G1; do
    R=$PWD; X=/dev/null; [ $b = before ] && R=/tmp/B; [ $round = 1 ] && X=$OUT/reports-$b.jsonl
    TESSERA_PR_GROUPS=${b#G} CONFIGS=1,2p,2s CELLS=pr RUNS=8 REPORTS=$X timeout 150 node .device/mg26.mjs "$R" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "rmat25 $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf checks.tgz gc2s.json speed.err reports-*.jsonl && rm -f gc2s.json speed.err reports-*.jsonl && cd - >/dev/null
grep -v "^GPU" $OUT/machine.txt; tail -n 1 $OUT/gc2s.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],'phases',{k:round(v,1) for k,v in r['phases'].items() if k in ('stepsMs','otherMs')}, {a:(round(v.get('peerMs',0),1),round(v['computeMs'],1)) for a,v in r['per'].items() if a.startswith('gpu')})
PY
