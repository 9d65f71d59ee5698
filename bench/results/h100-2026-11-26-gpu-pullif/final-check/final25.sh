#!/bin/bash
# The last build on a real GPU: gpu-check with GPU-only streaming pages (256 MiB, 64 k-edge pages:
# the pulls' active pages, the host buffer not involved) and at the default share; a .tsr load
# with the addon's page checks against TypeScript's.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
timeout 200 node scripts/gpu-check.mjs --scale 20 --no-bench --no-snap --gpu-share 1 --memory-limit 256MiB --page-edges 65536 --json $OUT/gc-stream.json > $OUT/gc-stream.txt 2>&1; echo "gpu-check stream rc=$?" >> $OUT/machine.txt
timeout 200 node scripts/gpu-check.mjs --scale 20 --no-bench --no-snap --json $OUT/gc-default.json > $OUT/gc-default.txt 2>&1; echo "gpu-check default rc=$?" >> $OUT/machine.txt
timeout 150 node dist/src/cli/main.js generate rmat --scale 24 --out /tmp/g24.tsr > $OUT/gen.txt 2>&1
cat /tmp/g24.tsr > /dev/null
timeout 150 node .device/ld.mjs /tmp/g24.tsr > $OUT/load.txt 2>&1
cat $OUT/machine.txt; tail -2 $OUT/gc-stream.txt $OUT/gc-default.txt; cat $OUT/gen.txt $OUT/load.txt
