#!/bin/bash
# Call 1: the GPU warm-up's two supersteps repeated K times at create (trial knob TESSERA_WARM_REPS), K = 1 (as built), 10, 40, in turn, two engines a cell, GPU-only RMAT 24 weighted, results handed back (RECYCLE=1) and kept (0).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
for c in wcc bfs; do
  for i in 1 2; do for rc in 1 0; do for k in 1 10 40; do
    echo "== $c K=$k recycle=$rc"; TESSERA_WARM_REPS=$k RECYCLE=$rc timeout 60 node $P/rc.mjs $c /tmp/g24.tsr 8
  done; done; done > /tmp/o/$c.txt 2>&1
  python3 $W/ratios.py /tmp/o/$c.txt >> /tmp/o/ratios.txt; python3 $W/phases.py /tmp/o/$c.txt >> /tmp/o/phases.txt
  grep -h "^== \|create ms" /tmp/o/$c.txt | paste - - >> /tmp/o/create.txt
done
tar cJf $OUT/call1.tar.xz -C /tmp/o .
paste -d' ' <(cut -c1-75 /tmp/o/ratios.txt) <(sed 's/^.*preK/preK/' /tmp/o/phases.txt); cat /tmp/o/create.txt; grep -il "error" /tmp/o/*.txt | head -5
