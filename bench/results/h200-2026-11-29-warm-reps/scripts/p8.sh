#!/bin/bash
# Call 8: the kept build (GPU_WARM_ROUNDS 6; one round for an engine made for one run) against A (HEAD before), as call 5: wcc four engines a recycle, bfs two; `tessera run` wall times; gpu-check with the kept build at GPU shares 1 and 0.6.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
for c in wcc bfs; do
  n=1; [ $c = wcc ] && n=4; [ $c = bfs ] && n=2
  for i in $(seq $n); do for rc in 1 0; do
    echo "== $c A recycle=$rc"; RECYCLE=$rc $A timeout 60 node $P/rc.mjs $c /tmp/g24.tsr 8
    echo "== $c B recycle=$rc"; RECYCLE=$rc timeout 60 node $P/rc.mjs $c /tmp/g24.tsr 8
  done; done > /tmp/o/$c.txt 2>&1
  python3 $W/ratios.py /tmp/o/$c.txt >> /tmp/o/ratios.txt; python3 $W/phases.py /tmp/o/$c.txt >> /tmp/o/phases.txt
  grep -h "^== \|create ms" /tmp/o/$c.txt | paste - - >> /tmp/o/create.txt
done
for i in 1 2 3; do for c in wcc bfs; do for b in A B; do
  if [ $b = A ]; then R="$A node .device/A/dist/src/cli/main.js"; else R="node dist/src/cli/main.js"; fi
  s=$(date +%s%N); $R run --graph /tmp/g24.tsr --algo $c $( [ $c = bfs ] && echo --source 0 ) --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>>/tmp/o/cli-err.txt; e=$(date +%s%N)
  echo "$c $b wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
done; done; done > /tmp/o/cli.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
tar cJf $OUT/call8.tar.xz -C /tmp/o .
paste -d' ' <(cut -c1-75 /tmp/o/ratios.txt) <(sed 's/^.*preK/preK/' /tmp/o/phases.txt); awk -F'\t' '{split($1,a," "); split($2,b," "); k=a[2]" "a[3]; v[k]=v[k]" "b[3]} END {for (k in v) print k, v[k]}' /tmp/o/create.txt | sort; cat /tmp/o/cli.txt; for f in /tmp/o/check1.txt /tmp/o/check06.txt; do tail -n 2 $f; done; grep -il "error" /tmp/o/*.txt | head -5
