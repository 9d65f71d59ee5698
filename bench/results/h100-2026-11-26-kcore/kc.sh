#!/bin/bash
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/log.txt 2>&1
timeout 150 node scripts/gpu-check.mjs --scale 20 --no-bench --no-snap --programs kcore,bfs,scc >> $OUT/log.txt 2>&1; echo "rc=$?" >> $OUT/log.txt
timeout 150 node scripts/gpu-check.mjs --scale 20 --no-bench --no-snap --programs kcore --gpu-share 1 >> $OUT/log.txt 2>&1; echo "rc=$?" >> $OUT/log.txt
grep -E "match|differ|rc=|GPU" $OUT/log.txt
