#!/bin/bash
# Issue 25, third GPU call: PageRank GPU-only streamed from disk (GPU capped at 2 GiB), the
# controller's staging threads reading each chunk in parts.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
L=$OUT/log.txt
T="node dist/src/cli/main.js"
printf 'name: gpu-only-2GiB\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0, memoryLimit: 2GiB }\nmodel: { gpuShare: 1 }\n' > /tmp/g2.yaml
G=/tmp/g26.tsr
drop() { python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)" $G; }
$T generate rmat --scale 26 --out $G >> $L 2>&1
echo "== dd buffered (cold)" >> $L; drop; dd if=$G of=/dev/null bs=64M >> $L 2>&1
for k in 1 2; do
echo "== pr GPU-only (2 GiB GPU) from disk, host memory 2GiB, run $k" >> $L; drop
$T run --algo pr --graph $G --topology /tmp/g2.yaml --iterations 10 --host-memory 2GiB --report $OUT/pr-gpu2-disk-$k.json >> $L 2>&1
done
echo "== the same, TESSERA_STAGING_THREADS=1 (one pread a chunk)" >> $L; drop
TESSERA_STAGING_THREADS=1 $T run --algo pr --graph $G --topology /tmp/g2.yaml --iterations 10 --host-memory 2GiB --report $OUT/pr-gpu2-disk-1t.json >> $L 2>&1
date >> $L
