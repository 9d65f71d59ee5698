#!/bin/bash
# Call 2 (nvidia-h200-x2): A (aa4d8a0: replacements made at once) against B (6c5c516: made a turn later, none for a
# result recycled at once), in turn, RMAT 25 unweighted GPU-only bfs on one GPU and two with S (mg29.mjs, 8 runs, the
# median of runs 2-8), two rounds; B with each GPU capped at 2 GiB, bfs and pr, one GPU and two with P and S, 8 runs;
# gpu-check on two GPUs with S at GPU share 1 (B).
set -u
source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
for round in 1 2; do for b in A B; do R=$PWD; [ $b = A ] && R=$PWD/.device/A
  t1=$(date +%s); CONFIGS=1,2s CELLS=bfs RUNS=8 timeout 60 node $F/mg29.mjs "$R" $TSR | sed "s/^{/{\"round\":$round,\"build\":\"$b\",\"cap\":0,/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log "ab $round $b" $?; done; done
t1=$(date +%s); MEMLIMIT=2147483648 CONFIGS=1,2p,2s CELLS=bfs,pr RUNS=8 timeout 150 node $F/mg29.mjs "$PWD" $TSR | sed "s/^{/{\"round\":1,\"build\":\"B\",\"cap\":2,/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log capped $?
t1=$(date +%s); timeout 150 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench > /tmp/o/gc2s.txt 2>&1; log "gpu-check 2 s" $?
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['round'],r['build'],'cap',r['cap'],r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
tar cJf $OUT/call2.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -12; tail -n 2 /tmp/o/gc2s.txt; cat /tmp/o/speed.txt; tail -3 /tmp/o/speed.err
