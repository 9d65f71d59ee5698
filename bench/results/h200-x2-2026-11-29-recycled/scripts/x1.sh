#!/bin/bash
# Call 1 (nvidia-h200-x2): gpu-check on two GPUs with P and S at GPU share 1; RMAT 25 unweighted, GPU-only, bfs and pr
# (10 iterations), one GPU against two with P and S, preloaded and results recycled (mg29.mjs, 8 runs, the median of
# runs 2-8), two rounds; the same with each GPU capped at 2 GiB, one round; the model's P/S choice under that cap.
set -u
source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
nvidia-smi topo -m >> /tmp/o/machine.txt 2>&1
for round in 1 2; do t1=$(date +%s); CONFIGS=1,2p,2s CELLS=bfs,pr RUNS=8 REPORTS=/tmp/o/reports.jsonl timeout 120 node $F/mg29.mjs "$PWD" $TSR | sed "s/^{/{\"round\":$round,\"cap\":0,/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log "speed $round" $?; done
t1=$(date +%s); MEMLIMIT=2147483648 CONFIGS=1,2p,2s CELLS=bfs,pr RUNS=5 timeout 150 node $F/mg29.mjs "$PWD" $TSR | sed "s/^{/{\"round\":1,\"cap\":2,/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log capped $?
sed -e 's/    streams: 4/    streams: 4\n    memoryLimit: 2GiB/' configs/1S2G.yaml > /tmp/1S2G-2GiB.yaml
for a in pr bfs; do t1=$(date +%s); left=$(( 540 - (t1 - T0) )); [ $left -lt 30 ] && break; echo "== $a" >> /tmp/o/model.txt
  timeout $left node dist/src/cli/main.js model --graph $TSR --topology /tmp/1S2G-2GiB.yaml --algo $a --multi-gpu auto --alpha 0 >> /tmp/o/model.txt 2>&1; log "model $a" $?; done
for c in p s; do t1=$(date +%s); left=$(( 580 - (t1 - T0) )); [ $left -lt 30 ] && break; timeout $left node scripts/gpu-check.mjs --gpus 2 --multi-gpu $c --gpu-share 1 --scale 20 --no-bench > /tmp/o/gc2$c.txt 2>&1; log "gpu-check 2 $c" $?; done
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['round'],'cap',r['cap'],r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
gzip -f /tmp/o/reports.jsonl; tar cJf $OUT/call1.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -12; tail -n 2 /tmp/o/gc2*.txt; cat /tmp/o/speed.txt; grep -i "chosen\|pick\|^==" /tmp/o/model.txt | head; tail -3 /tmp/o/speed.err
