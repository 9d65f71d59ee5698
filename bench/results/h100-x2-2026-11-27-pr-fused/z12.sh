#!/bin/bash
# Session 32 call 12: bfs's levels on several GPUs with peer access claim into the peers' copies too
# (Claims: depth and next flag; a meeting sums the claims, no flags copied or ORed). gpu-check 2 P and
# 2 S at share 1; RMAT 25 resident bfs, before (97db7b5) / after, 1 vs 2P vs 2S, two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before33.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench > $OUT/gc2p.txt 2>&1; echo "gpu-check 2 P rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G
t0=$(date +%s)
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    X=/dev/null; [ $round = 1 ] && X=$OUT/reports-$b.jsonl
    CONFIGS=1,2p,2s CELLS=bfs RUNS=8 REPORTS=$X timeout 100 node .device/mg26.mjs "$R" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
grep -v "^GPU" $OUT/machine.txt; tail -n 1 $OUT/gc2p.txt $OUT/gc2s.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],'phases',{k:round(v,1) for k,v in r['phases'].items() if k in ('allocMs','stepsMs','settleMs')}, {a:(round(v.get('peerMs',0),1),round(v['computeMs'],1)) for a,v in r['per'].items() if a.startswith('gpu')})
PY
