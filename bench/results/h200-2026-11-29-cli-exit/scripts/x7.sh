#!/bin/bash
# Call 7: readTsr of RMAT 24 weighted's .tsr alone (idle) and with this thread kept busy (rt.mjs), in turn, four each.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
for i in 1 2 3 4; do for m in idle busy; do node $F/rt.mjs /tmp/g24.tsr $m; done; done > /tmp/o/rt.txt 2>&1; log rt $?
tar cJf $OUT/call7.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/rt.txt
