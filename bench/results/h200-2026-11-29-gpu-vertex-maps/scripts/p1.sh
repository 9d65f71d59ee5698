#!/bin/bash
# Call 1: weighted PageRank (`tessera run --algo pr --param weighted=1 --iterations 10`, run as ppr) on RMAT 24 weighted, GPU-only (configs/1S1G-pcie5.yaml --alpha 0):
# A (.device/A: the commit before, its apply a CPU vertex map) against B (HEAD: the apply a GPU vertex pass, outW and p kept on the device), in turn, three each; B CPU-only and B unweighted pr GPU-only once;
# gpu-check at GPU share 1 with the fixture program mix (test/fixtures/operators: vertex operators) besides the built-ins; gpu_anchors.py (the link, cuSPARSE).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
[ -d .device/A ] || tar xJf .device/A.tar.xz -C .device
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
rep() { python3 -c "
import json;r=json.load(open('/tmp/o/r.json'))
st=[s for s in r['steps']]
print(r['program'],'load',round(r.get('loadMs',0)),'start',round(r['startMs']),'total',round(r['totalMs'],2),{k: round(v,1) for k, v in r['phases'].items()},'steps',len(st),'gpuIn MiB',round(sum(a.get('gpu',{}).get('stateBytesIn',0) for s in st for a in s['actors'])/2**20,1),'gpuOut MiB',round(sum(a.get('gpu',{}).get('stateBytesOut',0) for s in st for a in s['actors'])/2**20,1))"; }
one() { # build topology args...
  if [ $1 = A ]; then R="$A node"; M=.device/A/dist/src/cli/main.js; else R="node"; M=dist/src/cli/main.js; fi
  local b=$1 t=$2; shift 2
  s=$(date +%s%N); $R $M run --graph /tmp/g24.tsr --topology $t -q --report /tmp/o/r.json "$@" > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "wall_ms $(( (e-s)/1000000 )) $(rep) $(head -c 300 /tmp/o/err.txt)"
}
for i in 1 2 3; do for b in A B; do
  echo "== wpr GPU $b $(one $b 'configs/1S1G-pcie5.yaml --alpha 0' --algo pr --param weighted=1 --iterations 10)"
done; done > /tmp/o/wpr.txt 2>&1
echo "== wpr CPU B $(one B configs/1S.yaml --algo pr --param weighted=1 --iterations 10)" >> /tmp/o/wpr.txt 2>&1
echo "== pr GPU B $(one B 'configs/1S1G-pcie5.yaml --alpha 0' --algo pr --iterations 10)" >> /tmp/o/wpr.txt 2>&1
cp /tmp/o/r.json /tmp/o/last-report.json
timeout 240 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --module dist/test/fixtures/operators/mix.js > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 90 python3 .device/gpu_anchors.py 22 > /tmp/o/anchors.txt 2>&1
tar cJf $OUT/call1.tar.xz -C /tmp/o .
cat /tmp/o/wpr.txt; tail -n 4 /tmp/o/check1.txt; cat /tmp/o/anchors.txt
