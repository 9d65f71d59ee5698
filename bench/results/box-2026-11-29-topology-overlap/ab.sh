#!/bin/bash
# A/B wall of tessera run (CPU, RMAT 20 .tsr) on this box: A=/tmp/A3 (msgpackr main), B=/work/main
for i in $(seq ${N:-10}); do for b in A B; do
  if [ $b = A ]; then M=/tmp/A3/dist/src/cli/main.js; else M=/work/main/dist/src/cli/main.js; fi
  s=$(date +%s%N); TESSERA_NATIVE_DIR=/work/main/build/Release node $M run --graph /tmp/lv/g20.tsr --algo bfs --source 0 --topology /work/main/configs/1S.yaml -q --report /tmp/lv/r$b.json > /dev/null; e=$(date +%s%N)
  echo "$b $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/lv/r$b.json'));print(round(r['loadMs']),round(r['startMs']),round(r['totalMs'],1))")"
done; done
