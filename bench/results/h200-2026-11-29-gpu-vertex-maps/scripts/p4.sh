#!/bin/bash
# Call 4: B = 15f26aa (no next flags back after a superstep that marked none; ppr's personalization written in place), RMAT 24 weighted:
# one engine's five ppr runs (sr.mjs, 10 iterations, tolerance 0) and pr's; `tessera run` weighted PageRank GPU-only and CPU-only against A (.device/A) in turn;
# an Nsight Systems profile (nsys, where installed) of two ppr runs: the kernels' and CUDA API calls' summaries; gpu-check at GPU share 1.
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
{ echo "== ppr session B"; PARAMS='{"iterations":10,"tolerance":0}' node $SR ppr /tmp/g24.tsr 5
  echo "== pr session B"; PARAMS='{"iterations":10}' node $SR pr /tmp/g24.tsr 5; } > /tmp/o/session.txt 2>&1
for i in 1 2; do for b in A B; do
  echo "== wpr GPU $b $(one $b 'configs/1S1G-pcie5.yaml --alpha 0' --algo pr --param weighted=1 --iterations 10)"
  echo "== wpr CPU $b $(one $b configs/1S.yaml --algo pr --param weighted=1 --iterations 10)"
done; done > /tmp/o/wpr.txt 2>&1
if command -v nsys > /dev/null; then
  PARAMS='{"iterations":10,"tolerance":0}' timeout 200 nsys profile -o /tmp/o/ppr -t cuda,osrt --force-overwrite true node $SR ppr /tmp/g24.tsr 2 > /tmp/o/nsys-run.txt 2>&1
  timeout 120 nsys stats -r cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum /tmp/o/ppr.nsys-rep > /tmp/o/nsys-stats.txt 2>&1
  rm -f /tmp/o/ppr.nsys-rep /tmp/o/ppr.sqlite
else echo "no nsys" > /tmp/o/nsys-stats.txt; fi
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --module dist/test/fixtures/operators/mix.js > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
tar cJf $OUT/call4.tar.xz -C /tmp/o .
cat /tmp/o/session.txt /tmp/o/wpr.txt; head -c 6000 /tmp/o/nsys-stats.txt; tail -n 2 /tmp/o/check1.txt
