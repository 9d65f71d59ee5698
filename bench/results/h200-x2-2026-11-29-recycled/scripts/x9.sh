#!/bin/bash
# Call 9 (nvidia-h200-x2), build 12ccaf0 (RANGE_S 10 us): the bench harness's multiGpu auto choice (split29.mjs: modelSplit
# with the pages resident, calibrated now on this host) for pr and bfs on RMAT 25 with each GPU capped at 2 GiB
# (configs/1S2G-2GiB.yaml), and the cells it chooses between measured in the same call (mg29.mjs: one GPU capped, two
# with P, two with S; 8 runs, the median of runs 2-8).
set -u
source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
t1=$(date +%s); MEMLIMIT=2147483648 CONFIGS=1,2p,2s CELLS=bfs,pr RUNS=8 timeout 150 node $F/mg29.mjs "$PWD" $TSR >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log capped $?
t1=$(date +%s); timeout 300 node $F/split29.mjs "$PWD" $TSR configs/1S2G-2GiB.yaml pr,bfs > /tmp/o/split.jsonl 2> /tmp/o/split.err; log split $?
cp /tmp/tcache/calibration.json /tmp/o/ 2>/dev/null
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
tar cJf $OUT/call9.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; cat /tmp/o/speed.txt /tmp/o/split.jsonl; tail -3 /tmp/o/speed.err /tmp/o/split.err
