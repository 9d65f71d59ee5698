#!/bin/bash
# Issue 21's graphology targets on the GPU host's CPU: tessera bench --config bench/graphology-small.yaml.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && tar xJf .device/graphology.tar.xz -C /tmp/node_modules && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nproc; lscpu | grep "Model name"; free -g | head -2; } > $OUT/machine.txt 2>&1
timeout 500 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --out-dir /tmp/gs --no-progress > $OUT/log.txt 2>&1; echo "bench rc=$?" >> $OUT/machine.txt
cp /tmp/gs/*/results.md /tmp/gs/*/cells.jsonl $OUT/
cat $OUT/machine.txt; grep "^| rmat" $OUT/results.md | cut -d'|' -f2-4,8 
