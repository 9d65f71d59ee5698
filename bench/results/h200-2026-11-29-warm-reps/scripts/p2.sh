#!/bin/bash
# Call 2: as call 1, the repeats after the first without the device's read of the pages (the pull's `again` argument): K = 1, 10, 30 in turn, three engines a wcc cell, two a bfs cell.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
for c in wcc bfs; do
  n=3; [ $c = bfs ] && n=2
  for i in $(seq $n); do for rc in 1 0; do for k in 1 10 30; do
    echo "== $c K=$k recycle=$rc"; TESSERA_WARM_REPS=$k RECYCLE=$rc timeout 60 node $P/rc.mjs $c /tmp/g24.tsr 8
  done; done; done > /tmp/o/$c.txt 2>&1
  python3 $W/ratios.py /tmp/o/$c.txt >> /tmp/o/ratios.txt; python3 $W/phases.py /tmp/o/$c.txt >> /tmp/o/phases.txt
  grep -h "^== \|create ms" /tmp/o/$c.txt | paste - - >> /tmp/o/create.txt
done
tar cJf $OUT/call2.tar.xz -C /tmp/o .
paste -d' ' <(cut -c1-75 /tmp/o/ratios.txt) <(sed 's/^.*preK/preK/' /tmp/o/phases.txt); cat /tmp/o/create.txt | awk '{print $2, $3, $6}' | sort | awk '{a[$1" "$2]=a[$1" "$2]" "$3} END {for (k in a) print k, a[k]}'; grep -il "error" /tmp/o/*.txt | head -5
