#!/bin/bash
# Call 6: B = 54c6364 (a GPU actor's page sets faulted in on the addon's threads before they are written) against C = the same dist with e74c35c's actors/gpu/pages.js (.device/pages-before.js), in turn:
# `tessera run`, GPU-only, RMAT 22 (unweighted, directed): examples/mis (its union pages cut from the view) and cdlp (its in+out pages), three times each (steps.py); the first attempt (call6) lacked C's native sources for NVRTC, so its mis C runs failed.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
S=bench/results/h200-2026-11-29-gpu-vertex-maps/scripts
rm -rf /tmp/C && mkdir -p /tmp/C/native && cp -r dist package.json /tmp/C/ && cp -r native/src /tmp/C/native/ && cp .device/pages-before.js /tmp/C/dist/actors/gpu/pages.js && ln -sfn /tmp/node_modules /tmp/C/node_modules
node dist/src/cli/main.js generate rmat --scale 22 --out /tmp/g22.tsr > /dev/null 2>&1
for algo in mis cdlp; do for i in 1 2 3; do for b in C B; do
  if [ $b = B ]; then Rt=.; else Rt=/tmp/C; fi
  a=$algo; [ $algo = mis ] && a=$Rt/dist/examples/mis/index.js
  st=$(date +%s%N); TESSERA_NATIVE_DIR=$PWD/build/Release node $Rt/dist/src/cli/main.js run --graph /tmp/g22.tsr --algo $a --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json --out /tmp/o/x$b.txt > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "== $algo rmat 22 $b GPU-only run $i wall_ms $(( (e-st)/1000000 ))"; python3 $S/steps.py /tmp/o/r.json; head -c 300 /tmp/o/err.txt
  python3 -c "import json; s=json.load(open('/tmp/o/r.json'))['steps']; g=[x for x in s if any(a.get('gpu') for a in x['actors'])]; print('  first GPU superstep ms', round(g[0]['ms'],1) if g else None)"
done; cmp -s /tmp/o/xC.txt /tmp/o/xB.txt && echo "outputs equal" || echo "OUTPUTS DIFFER"; done; done > /tmp/o/pages.txt 2>&1
rm -f /tmp/o/xC.txt /tmp/o/xB.txt
tar cJf $OUT/call6b.tar.xz -C /tmp/o .
cat /tmp/o/pages.txt
