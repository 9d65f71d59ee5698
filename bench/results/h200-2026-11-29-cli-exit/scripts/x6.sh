#!/bin/bash
# Call 6: pin.mjs on RMAT 24 weighted's .tsr (this build: its pages in arenas of huge pages).
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
timeout 200 node $F/pin.mjs /tmp/g24.tsr > /tmp/o/pin.txt 2>&1; log pin $?
tar cJf $OUT/call6.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/pin.txt
