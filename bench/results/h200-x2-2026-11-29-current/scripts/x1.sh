#!/bin/bash
# Call 1 (nvidia-h200-x2), build 80b3020: the runs session 50 left for a two-GPU host. RMAT 25 unweighted GPU-only,
# bfs and pr (10 iterations), one GPU against two with P and S (mg51.mjs without PERRUN, run as a copy of mg29.mjs; 10 runs, the median of runs 2-10), two
# rounds; gpu-check on two GPUs with P and with S; a run refused during its load on this GPU host, four times
# (a5cbdf3); gpu_anchors.py 25 (cuSPARSE, the link); the bench harness's two-GPU streaming sweep (multiGpu auto).
set -u
source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-current/scripts
for round in 1 2; do t1=$(date +%s); CONFIGS=1,2p,2s CELLS=bfs,pr RUNS=10 REPORTS=/tmp/o/reports.jsonl timeout 120 node $F/mg51.mjs "$PWD" $TSR | sed "s/^{/{\"round\":$round,\"cap\":0,/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log "speed $round" $?; done
for i in 1 2 3 4; do t1=$(date +%s); timeout 60 node dist/src/cli/main.js run --graph $TSR --algo bfs > /tmp/o/refused$i.txt 2>&1; log "refused $i" $?; done
for c in p s; do t1=$(date +%s); timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu $c --gpu-share 1 --scale 20 --no-bench > /tmp/o/gc2$c.txt 2>&1; log "gpu-check 2 $c" $?; done
t1=$(date +%s); timeout 90 python3 .device/gpu_anchors.py 25 > /tmp/o/anchors.txt 2>&1; log anchors $?
t1=$(date +%s); left=$(( 560 - (t1 - T0) )); timeout $left node dist/src/cli/main.js bench --config bench/gpu2-streaming-rmat25.yaml --out-dir /tmp/o/bench --no-progress > /tmp/o/bench.txt 2>&1; log bench $?
cp /tmp/tcache/calibration.json /tmp/o/ 2>/dev/null
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['round'],'cap',r['cap'],r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
gzip -f /tmp/o/reports*.jsonl; tar cJf $OUT/call1.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -14; tail -n 1 /tmp/o/gc2*.txt; cat /tmp/o/speed.txt; head -3 /tmp/o/refused*.txt; tail -5 /tmp/o/anchors.txt; tail -25 /tmp/o/bench.txt; tail -3 /tmp/o/speed.err
