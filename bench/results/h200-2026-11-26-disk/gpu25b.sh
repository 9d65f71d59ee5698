#!/bin/bash
# Issue 25: GPU actors reading pages from the .tsr, second call: correctness on the real GPU
# (RMAT 20 weighted, 64 k-edge pages, 1S1G at alpha 0.5, in memory vs from disk at 48 MiB) and
# PageRank GPU-only streamed from disk (GPU capped at 2 GiB) with the kernel reading ahead.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
L=$OUT/log.txt
T="node dist/src/cli/main.js"
printf 'name: gpu-only-2GiB\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0, memoryLimit: 2GiB }\nmodel: { gpuShare: 1 }\n' > /tmp/g2.yaml
$T convert rmat:20:weighted --page-edges 65536 --out /tmp/r20.tsr >> $L 2>&1
ls -la /tmp/r20.tsr >> $L
for a in bfs wcc sssp pr cdlp; do
  src=""; [ $a = bfs -o $a = sssp ] && src="--source 0"
  for m in mem disk; do
    extra=""; [ $m = disk ] && extra="--host-memory 48MiB"
    $T run --algo $a $src --graph /tmp/r20.tsr --topology configs/1S1G.yaml --alpha 0.5 --steal off $extra --out /tmp/$a.$m > /tmp/$a.$m.log 2>&1 || { echo "$a $m failed"; cat /tmp/$a.$m.log; } >> $L
  done
  grep -h "pages from disk\|EMULATED\|kernel calls" /tmp/$a.disk.log >> $L
  echo "$a 1S1G mem vs disk: $(python3 .device/cmp-out.py /tmp/$a.mem /tmp/$a.disk)" >> $L
done
G=/tmp/g26.tsr
drop() { python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)" $G; }
$T generate rmat --scale 26 --out $G >> $L 2>&1
echo "== dd buffered (cold)" >> $L; drop; dd if=$G of=/dev/null bs=64M >> $L 2>&1
echo "== pr GPU-only (2 GiB GPU) from disk, host memory 2GiB" >> $L; drop
$T run --algo pr --graph $G --topology /tmp/g2.yaml --iterations 10 --host-memory 2GiB --report $OUT/pr-gpu2-disk.json >> $L 2>&1
date >> $L
