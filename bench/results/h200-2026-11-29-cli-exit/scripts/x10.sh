#!/bin/bash
# Call 10: pre.mjs on RMAT 24 weighted's in-pages (weightless), the copy pool at its default (8 threads here) and at 16.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
{ timeout 100 node $F/pre.mjs /tmp/g24.tsr; TESSERA_STAGING_THREADS=16 timeout 100 node $F/pre.mjs /tmp/g24.tsr; } > /tmp/o/pre.txt 2>&1; log pre $?
tar cJf $OUT/call10.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/pre.txt
