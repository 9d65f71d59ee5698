#!/bin/bash
# One device call: user GPU operators on a real GPU (NVRTC), gpu-check of the built-ins and the
# operator programs against the CPU, generic operators vs built-ins, anchors.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; node -v; ldconfig -p | grep -i nvrtc | head -3; ls /usr/local/cuda*/lib64/libnvrtc.so* 2>&1 | head -3; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 240 node .device/ops-extra.mjs > $OUT/ops-extra.txt 2>&1; echo "ops-extra rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --scale 20 --snap .device/snap --no-bench --module dist/examples/hits/index.js --module dist/test/fixtures/operators/programs.js --json $OUT/gpu-check.json > $OUT/gpu-check.txt 2>&1; echo "gpu-check rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 90 node scripts/gpu-check.mjs --scale 16 --snap .device/snap --no-bench --programs bfs --module dist/examples/kcore/index.js --json $OUT/gpu-check-kcore.json > $OUT/gpu-check-kcore.txt 2>&1; echo "gpu-check kcore rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 60 python3 .device/gpu_anchors.py 22 > $OUT/anchors.txt 2>&1
cat $OUT/machine.txt $OUT/ops-extra.txt; tail -40 $OUT/gpu-check.txt; tail -12 $OUT/gpu-check-kcore.txt; cat $OUT/anchors.txt
