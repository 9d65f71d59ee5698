#!/bin/bash
# Review check of the controller's load path after folding the host buffer's two DMA branches:
# RMAT 20 weighted, GPU-only with the GPU capped at 96 MiB (pages stream), from disk with a
# host limit that buffers some pages, against in memory.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
L=$OUT/log.txt; T="node dist/src/cli/main.js"
nvidia-smi -L > $L
printf 'name: g256\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0, memoryLimit: 96MiB }\nmodel: { gpuShare: 1 }\n' > /tmp/g256.yaml
$T generate rmat --scale 20 --weighted --page-edges 65536 --out /tmp/r20.tsr >> $L 2>&1
LIM=$(python3 -c "import os; print(os.path.getsize('/tmp/r20.tsr')//4)")
$T run --algo pr --graph /tmp/r20.tsr --topology /tmp/g256.yaml --iterations 10 --out /tmp/pr.mem >> $L 2>&1
$T run --algo pr --graph /tmp/r20.tsr --topology /tmp/g256.yaml --iterations 10 --host-memory $LIM --out /tmp/pr.disk >> $L 2>&1
echo "pr GPU-only 96MiB from disk vs in memory: $(python3 .device/cmp-out.py /tmp/pr.mem /tmp/pr.disk)" >> $L
grep -E "GPU|pages from disk|supersteps \(|differ" $L
