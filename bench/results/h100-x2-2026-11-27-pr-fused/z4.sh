#!/bin/bash
# Session 32 call 4: pr_iterations on several GPUs: no page groups; with peer access the apply (KPrFinish) stores each owned contribution into the peers' arrays too (else a copy after the kernels); every rank on each GPU at a last meeting, read back in even shares.

# gpu-check 2 P and 2 S at share 1; RMAT 25 resident before (bf39532: dist + native) / after, 1 vs 2P vs 2S, pr; anchors.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before32.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; nvidia-smi topo -m; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench --json $OUT/gc2p.json > $OUT/gc2p.txt 2>&1; echo "gpu-check 2 P share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench --json $OUT/gc2s.json > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  for b in before after; do
    R=$PWD; X=/dev/null; [ $b = before ] && R=/tmp/B; [ $round = 1 ] && X=$OUT/reports-$b.jsonl
    CONFIGS=1,2p,2s CELLS=pr RUNS=8 REPORTS=$X timeout 150 node .device/mg26.mjs "$R" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "rmat25 $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 120 python3 .device/gpu_anchors.py 25 > $OUT/anchors.txt 2>&1; echo "anchors rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf checks.tgz gc2p.json gc2s.json speed.err reports-before.jsonl reports-after.jsonl && rm -f gc2p.json gc2s.json speed.err reports-*.jsonl && cd - >/dev/null
grep -v "^GPU" $OUT/machine.txt; tail -n 1 $OUT/gc2p.txt $OUT/gc2s.txt; tail -5 $OUT/anchors.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],'phases',{k:round(v,1) for k,v in r['phases'].items() if k in ('stepsMs','settleMs','otherMs')}, {a:(round(v.get('peerMs',0),1),round(v['computeMs'],1)) for a,v in r['per'].items() if a.startswith('gpu')})
PY
