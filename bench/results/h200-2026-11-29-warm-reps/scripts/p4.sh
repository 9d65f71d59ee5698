#!/bin/bash
# Call 4: the repeats touching one page each, the last every page (the pull's `again` argument on all but the last): K = 1 and 12 in turn, four engines a wcc cell, two a bfs cell.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
for c in wcc bfs; do
  n=4; [ $c = bfs ] && n=2
  for i in $(seq $n); do for rc in 1 0; do for k in 1 12; do
    echo "== $c K=$k recycle=$rc"; TESSERA_WARM_REPS=$k RECYCLE=$rc timeout 60 node $P/rc.mjs $c /tmp/g24.tsr 8
  done; done; done > /tmp/o/$c.txt 2>&1
  python3 $W/ratios.py /tmp/o/$c.txt >> /tmp/o/ratios.txt; python3 $W/phases.py /tmp/o/$c.txt >> /tmp/o/phases.txt
  grep -h "^== \|create ms" /tmp/o/$c.txt | paste - - >> /tmp/o/create.txt
done
tar cJf $OUT/call4.tar.xz -C /tmp/o .
paste -d' ' <(cut -c1-75 /tmp/o/ratios.txt) <(sed 's/^.*preK/preK/' /tmp/o/phases.txt); awk -F'\t' '{split($1,a," "); split($2,b," "); k=a[2]" "a[3]; v[k]=v[k]" "b[3]} END {for (k in v) print k, v[k]}' /tmp/o/create.txt | sort; grep -il "error" /tmp/o/*.txt | head -5
