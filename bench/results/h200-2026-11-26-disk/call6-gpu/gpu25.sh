#!/bin/bash
# Issue 25: GPU actors reading pages from the .tsr (disk -> pinned staging -> device).
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
L=$OUT/log.txt
T=node\ dist/src/cli/main.js
nvidia-smi --query-gpu=name,memory.total --format=csv >> $L 2>&1
printf 'name: gpu-only-2GiB\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0, memoryLimit: 2GiB }\nmodel: { gpuShare: 1 }\n' > /tmp/g2.yaml
printf 'name: gpu-only\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0 }\nmodel: { gpuShare: 1 }\n' > /tmp/g.yaml
# Correctness on the real GPU: RMAT 20 weighted, in memory vs from disk at 1/8 of its pages, 1S1G.
$T generate rmat --scale 20 --weighted --out /tmp/r20.tsr >> $L 2>&1
LIM=$(python3 -c "import os; print(os.path.getsize('/tmp/r20.tsr')//8)")
for a in bfs wcc sssp pr cdlp; do
  for m in mem disk; do
    extra=""; [ $m = disk ] && extra="--host-memory $LIM"
    $T run --algo $a --source 0 --graph /tmp/r20.tsr --topology configs/1S1G.yaml --alpha 0.5 --steal off $extra --out /tmp/$a.$m -q >> $L 2>&1 || echo "$a $m failed" >> $L
  done
  echo "$a 1S1G mem vs disk: $(python3 .device/cmp-out.py /tmp/$a.mem /tmp/$a.disk)" >> $L
done
# PageRank GPU-only on RMAT 26: pages resident (in memory), from disk with a GPU of 2 GiB
# (streamed from disk every pass), from disk with the whole GPU (read once).
G=/tmp/g26.tsr
drop() { python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)" $G; }
$T generate rmat --scale 26 --out $G >> $L 2>&1
echo "== dd buffered (cold)" >> $L; drop; dd if=$G of=/dev/null bs=64M >> $L 2>&1
echo "== pr GPU-only in memory" >> $L
$T run --algo pr --graph $G --topology /tmp/g.yaml --iterations 10 --report $OUT/pr-gpu-mem.json --out /tmp/prg.mem >> $L 2>&1
echo "== pr GPU-only (2 GiB GPU) from disk, host memory 2GiB" >> $L; drop
$T run --algo pr --graph $G --topology /tmp/g2.yaml --iterations 10 --host-memory 2GiB --report $OUT/pr-gpu2-disk.json --out /tmp/prg.disk >> $L 2>&1
echo "pr GPU-only mem vs disk: $(python3 .device/cmp-out.py /tmp/prg.mem /tmp/prg.disk)" >> $L
echo "== pr GPU-only (whole GPU) from disk, host memory 2GiB" >> $L; drop
$T run --algo pr --graph $G --topology /tmp/g.yaml --iterations 10 --host-memory 2GiB --report $OUT/pr-gpu-disk.json >> $L 2>&1
date >> $L
