#!/bin/bash
# Call 12: weighted PageRank (`--algo pr --param weighted=1`, handed to ppr) GPU-only on RMAT 24 weighted: B (HEAD: ppr preloaded, pages registered with weights at create) against A (.device/A, ba454c4^: pr preloaded, pages weightless at create, registered again with weights in the run), in turn, three each; wall, start, total.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
for i in 1 2 3; do for b in A B; do
  if [ $b = A ]; then R="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release node"; M=.device/A/dist/src/cli/main.js; else R="node"; M=dist/src/cli/main.js; fi
  s=$(date +%s%N); $R $M run --graph /tmp/g24.tsr --algo pr --param weighted=1 --iterations 10 --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "== pr weighted $b wall_ms $(( (e-s)/1000000 )) $(python3 -c "
import json;r=json.load(open('/tmp/o/r.json'))
g=[a.get('gpu') or {} for s in r['steps'] for a in s['actors']]
print('program',r['program'],'load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2),'misses',sum(x.get('misses',0) for x in g),'pageMB',round(sum(x.get('pageBytes',0) for x in g)/2**20))") $(head -c 200 /tmp/o/err.txt)"
done; done > /tmp/o/ppr.txt 2>&1
tar cJf $OUT/call12.tar.xz -C /tmp/o .
cat /tmp/o/ppr.txt
