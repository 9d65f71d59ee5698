#!/bin/bash
# Call 3: B = 92a673d (pprInit's and pprApply's arrays filled on the device, not sent up: GpuOperator.fills; a pull over every vertex sets its device frontier) against A (.device/A, the commit before the session's work), RMAT 24 weighted:
# `tessera run --algo pr --param weighted=1 --iterations 10` GPU-only in turn, twice each; one engine's five runs (sr.mjs, no memory limit) of ppr (iterations 10, tolerance 0) A and B, and B's unweighted pr (10 iterations);
# gpu-check at GPU shares 1 and 0.6 with the fixture mix; gpu_anchors.py 24 (cuSPARSE PageRank on RMAT 24, the link).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
[ -d .device/A ] || tar xJf .device/A.tar.xz -C .device
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
SR=bench/results/h200-2026-11-29-weightless-pages/scripts/sr.mjs
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
for i in 1 2; do for b in A B; do
  echo "== wpr GPU $b $(one $b 'configs/1S1G-pcie5.yaml --alpha 0' --algo pr --param weighted=1 --iterations 10)"
done; done > /tmp/o/wpr.txt 2>&1
cp /tmp/o/r.json /tmp/o/wpr-B-report.json
{ echo "== ppr session A"; $A PARAMS='{"iterations":10,"tolerance":0}' node $SR ppr /tmp/g24.tsr 5
  echo "== ppr session B"; PARAMS='{"iterations":10,"tolerance":0}' node $SR ppr /tmp/g24.tsr 5
  echo "== pr session B"; PARAMS='{"iterations":10}' node $SR pr /tmp/g24.tsr 5; } > /tmp/o/session.txt 2>&1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --module dist/test/fixtures/operators/mix.js > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench --module dist/test/fixtures/operators/mix.js > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
timeout 120 python3 .device/gpu_anchors.py 24 > /tmp/o/anchors.txt 2>&1
tar cJf $OUT/call3.tar.xz -C /tmp/o .
cat /tmp/o/wpr.txt /tmp/o/session.txt; tail -n 2 /tmp/o/check1.txt /tmp/o/check06.txt; grep -v Warning /tmp/o/anchors.txt | grep -v sparse_coo
