#!/bin/bash
# Call 7: CPU + GPU (the GPU's share 0.6), results handed back: the committed build (results locked at create) against it with TESSERA_PIN_STATE=1 (a trial, not kept: every pooled state array and byte map locked at create), in turn, two engines a cell, RMAT 24 weighted, 6 runs.
set -u
. bench/results/h200-2026-11-29-pinned-outputs/scripts/setup.sh
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for c in pr bfs wcc; do
  for i in 1 2; do for ps in 0 1; do
    echo "== $c pinstate=$ps"; SHARE=0.6 RECYCLE=1 TESSERA_PIN_STATE=$ps timeout 90 node $S/rc.mjs $c /tmp/g24.tsr 6
  done; done > /tmp/o/$c.txt 2>&1
  python3 $W/ratios.py /tmp/o/$c.txt >> /tmp/o/ratios.txt
  grep -h "^== \|create ms" /tmp/o/$c.txt | paste - - >> /tmp/o/create.txt
done
tar cJf $OUT/call7.tar.xz -C /tmp/o .
cat /tmp/o/ratios.txt /tmp/o/create.txt; grep -il "error" /tmp/o/*.txt | head -5
