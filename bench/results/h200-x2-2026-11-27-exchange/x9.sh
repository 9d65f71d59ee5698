#!/bin/bash
# Session 30 call 9: the final build (7fb6dad..595ab16 native): gpu-check on one GPU (share 1 and 0.6) and two GPUs (P share 1, S share 0.6).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
for c in "1 1" "1 0.6" "2p 1" "2s 0.6"; do
  set -- $c; G=${1:0:1}; M=${1:1}; X=""; [ -n "$M" ] && X="--multi-gpu $M"
  t0=$(date +%s); timeout 150 node scripts/gpu-check.mjs --gpus $G $X --gpu-share $2 --scale 20 --no-bench > $OUT/gc-$1-$2.txt 2>&1; echo "gpu-check $1 share $2 rc=$? $(( $(date +%s) - t0 ))s $(tail -n 1 $OUT/gc-$1-$2.txt)" >> $OUT/machine.txt
done
cat $OUT/machine.txt
