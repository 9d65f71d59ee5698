#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
nvidia-smi -L > $OUT/machine.txt
timeout 400 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --module dist/examples/hits/index.js --json $OUT/gpu-check.json > $OUT/gpu-check.txt 2>&1; echo "rc=$?" >> $OUT/machine.txt
cat $OUT/machine.txt; tail -42 $OUT/gpu-check.txt | cut -c1-60
