#!/bin/bash
# Call 5: a session's runs of PageRank (10 iterations) and bfs on RMAT 24 weighted, one GPU capped at 2 GiB (sr.mjs): the first run against later ones, with the streamed pages page-locked on their second load (default) and never (TESSERA_PIN_PAGES=0).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
S=bench/results/h200-2026-11-29-weightless-pages/scripts
for pin in 1 0 1 0; do
  export TESSERA_PIN_PAGES=$pin
  echo "== pr PIN=$pin"; MEM=2GiB PARAMS='{"iterations":10}' node $S/sr.mjs pr /tmp/g24.tsr 5
  echo "== bfs PIN=$pin"; MEM=2GiB PARAMS='{"source":0}' node $S/sr.mjs bfs /tmp/g24.tsr 5
done > /tmp/o/session.txt 2>&1
tar cJf $OUT/call5.tar.xz -C /tmp/o .
cat /tmp/o/session.txt
