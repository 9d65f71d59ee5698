#!/bin/bash
# Call 6: where create's time goes, A (one warm-up round) against B (12), in turn, three engines each for wcc and bfs (cw.mjs).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
for i in 1 2 3; do for c in wcc bfs; do
  echo "== $c A"; $A timeout 60 node $S/cw.mjs $c /tmp/g24.tsr
  echo "== $c B"; timeout 60 node $S/cw.mjs $c /tmp/g24.tsr
done; done > /tmp/o/create.txt 2>&1
tar cJf $OUT/call6.tar.xz -C /tmp/o .
cat /tmp/o/create.txt
