#!/bin/bash
# Session 30 call 1: current main on two GPUs. gpu-check 2 GPUs P at share 1; RMAT 25 resident 1 vs 2P vs 2S (bfs, wcc, pr), two rounds, round 1's reports kept.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; nvidia-smi topo -m | head -4; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench --json $OUT/gc2p.json > $OUT/gc2p.txt 2>&1; echo "gpu-check 2 P share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  X=/dev/null; [ $round = 1 ] && X=$OUT/reports.jsonl
  CONFIGS=1,2p,2s CELLS=bfs,wcc,pr RUNS=5 REPORTS=$X timeout 200 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "rmat25 $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
gzip -f $OUT/reports.jsonl
cd $OUT && tar czf checks.tgz gc2p.json speed.err gen.txt && rm -f gc2p.json speed.err gen.txt && cd - >/dev/null
cat $OUT/machine.txt | grep -v "^GPU" ; tail -n 2 $OUT/gc2p.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],r['steps'],'plan',r['planMs'],'fold',r['foldMs'],{k:{kk:round(vv,1) if isinstance(vv,float) else vv for kk,vv in v.items() if kk in('kernelMs','copyMs','peerMs','computeMs','voteMs','in','out','peer')} for k,v in r['per'].items()}, r.get('phases'))
PY
