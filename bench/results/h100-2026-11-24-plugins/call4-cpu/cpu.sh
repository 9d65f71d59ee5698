#!/bin/bash
# 1S (16 threads) CPU medians of the seven programs, the pre-port build (316ff71) and this one alternated.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before.tar.xz -C /tmp/before && ln -sfn /tmp/node_modules /tmp/before/node_modules && mkdir -p /tmp/before/build && ln -sfn "$PWD/build/Release" /tmp/before/build/Release
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > $OUT/machine.txt 2>&1
A="--scale ${SCALE:-21} --reps 5 --threads 16 --graphs rmat --peer-reps 0"
for i in 1 2; do
  (cd /tmp/before && node dist/bench/programs.js $A > $OUT/before$i.md 2> $OUT/before$i.err)
  node dist/bench/programs.js $A > $OUT/after$i.md 2> $OUT/after$i.err
done
cat $OUT/machine.txt; for f in $OUT/*.md; do echo "== $f"; grep "^| " $f; done; tail -3 $OUT/*.err
