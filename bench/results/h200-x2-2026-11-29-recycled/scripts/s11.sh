#!/bin/bash
# Call 11 (nvidia-h200, one GPU), a build with rGpuAlone (not kept: a GPU's rate owning every vertex, unforced): calibration
# of pr and bfs on configs/1S1G-2GiB.yaml for RMAT 25 (split29.mjs: the harness's prediction at alpha 0, pages
# resident), and the runs it predicts (mg29.mjs, one GPU capped at 2 GiB and not, 8 runs, the median of runs 2-8).
set -u
source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
t1=$(date +%s); timeout 300 node $F/split29.mjs "$PWD" $TSR configs/1S1G-2GiB.yaml pr,bfs > /tmp/o/split.jsonl 2> /tmp/o/split.err; log split $?
cp /tmp/tcache/calibration.json /tmp/o/ 2>/dev/null
t1=$(date +%s); MEMLIMIT=2147483648 CONFIGS=1 CELLS=pr,bfs RUNS=8 timeout 100 node $F/mg29.mjs "$PWD" $TSR | sed 's/^{/{"cap":2,/' >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log capped $?
t1=$(date +%s); CONFIGS=1 CELLS=pr,bfs RUNS=8 timeout 100 node $F/mg29.mjs "$PWD" $TSR | sed 's/^{/{"cap":0,/' >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log resident $?
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print('cap',r['cap'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
tar cJf $OUT/call11.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; cat /tmp/o/speed.txt /tmp/o/split.jsonl; python3 -c "
import json; d=json.load(open('/tmp/o/calibration.json'))
for k,v in d['entries'].items(): print(k, {kk:vv for kk,vv in v.items() if kk in ('rGpu','gpuOverheadS','rGpuAlone','gpuOverheadAloneS','gpuVertexS','linkBytesPerSec')})"; tail -3 /tmp/o/speed.err /tmp/o/split.err
