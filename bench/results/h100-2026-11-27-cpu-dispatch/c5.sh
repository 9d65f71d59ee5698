#!/bin/bash
# Session 34 call 11 (nvidia-h100-x1, 16 cores): what a barrier among worker threads costs
# (barrier.mjs: 15 and 16 threads, 2000 barriers, blocking or spinning first).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
{ nproc; lscpu | grep "Model name"; } > $OUT/machine.txt 2>&1
for t in 16 15 8; do timeout 60 node .device/barrier.mjs $t 2000 >> $OUT/barrier.txt 2>&1; done
cat $OUT/machine.txt $OUT/barrier.txt
