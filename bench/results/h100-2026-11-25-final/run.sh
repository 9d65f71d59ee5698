#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; git log -1 --format=%h 2>/dev/null; } > /tmp/o/machine.txt 2>&1
mods="--module dist/test/fixtures/operators/programs.js --module dist/examples/mis/index.js --module dist/examples/hits/index.js"
timeout 250 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap $mods --json /tmp/o/gpu-check.json > /tmp/o/gpu-check.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/machine.txt
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt; tail -2 /tmp/o/gpu-check.txt; grep -E "MISMATCH|mismatch|differ" /tmp/o/gpu-check.txt | head
