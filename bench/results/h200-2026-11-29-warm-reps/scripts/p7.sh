#!/bin/bash
# Call 7: A (HEAD before: one round) against B with 6 and with 12 rounds (trial knob TESSERA_TRIAL_ROUNDS, not kept) in turn, wcc three engines a recycle; `tessera run` wall times (B: one round there, EngineOptions.runs 'one').
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
for c in wcc; do
  for i in 1 2 3; do for rc in 1 0; do
    echo "== $c A recycle=$rc"; RECYCLE=$rc $A timeout 60 node $P/rc.mjs $c /tmp/g24.tsr 8
    for k in 6 12; do echo "== $c B$k recycle=$rc"; TESSERA_TRIAL_ROUNDS=$k RECYCLE=$rc timeout 60 node $P/rc.mjs $c /tmp/g24.tsr 8; done
  done; done > /tmp/o/$c.txt 2>&1
  python3 $W/ratios.py /tmp/o/$c.txt >> /tmp/o/ratios.txt; python3 $W/phases.py /tmp/o/$c.txt >> /tmp/o/phases.txt
  grep -h "^== \|create ms" /tmp/o/$c.txt | paste - - >> /tmp/o/create.txt
done
for i in 1 2 3; do for c in wcc bfs; do for b in A B; do
  if [ $b = A ]; then R="$A node .device/A/dist/src/cli/main.js"; else R="node dist/src/cli/main.js"; fi
  s=$(date +%s%N); $R run --graph /tmp/g24.tsr --algo $c $( [ $c = bfs ] && echo --source 0 ) --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>>/tmp/o/cli-err.txt; e=$(date +%s%N)
  echo "$c $b wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
done; done; done > /tmp/o/cli.txt
tar cJf $OUT/call7.tar.xz -C /tmp/o .
paste -d' ' <(cut -c1-75 /tmp/o/ratios.txt) <(sed 's/^.*preK/preK/' /tmp/o/phases.txt); awk -F'\t' '{split($1,a," "); split($2,b," "); k=a[2]" "a[3]; v[k]=v[k]" "b[3]} END {for (k in v) print k, v[k]}' /tmp/o/create.txt | sort; cat /tmp/o/cli.txt; grep -il "error" /tmp/o/*.txt | head -5
