#!/bin/bash
# Issue 25: GPU actors keep pages read from disk in a host buffer (their share of the host memory
# limit, GTS's MMBuf); PageRank GPU-only streamed from disk against dd in the same call.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
L=$OUT/log.txt
T="node dist/src/cli/main.js"
nvidia-smi --query-gpu=name,memory.total --format=csv >> $L 2>&1; nproc >> $L; free -g | head -2 >> $L
printf 'name: gpu-only-2GiB\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0, memoryLimit: 2GiB }\nmodel: { gpuShare: 1 }\n' > /tmp/g2.yaml
printf 'name: gpu-only-256MiB\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0, memoryLimit: 256MiB }\nmodel: { gpuShare: 1 }\n' > /tmp/g256.yaml
printf 'name: gpu-only\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0 }\nmodel: { gpuShare: 1 }\n' > /tmp/g.yaml
# Correctness: RMAT 20 weighted, 64 k-edge pages, in memory vs from disk at 1/8 of its pages.
$T generate rmat --scale 20 --weighted --page-edges 65536 --out /tmp/r20.tsr >> $L 2>&1
LIM=$(python3 -c "import os; print(os.path.getsize('/tmp/r20.tsr')//8)")
for a in bfs wcc sssp pr cdlp; do
  for m in mem disk; do
    extra=""; [ $m = disk ] && extra="--host-memory $LIM"
    $T run --algo $a --source 0 --graph /tmp/r20.tsr --topology configs/1S1G.yaml --alpha 0.5 --steal off $extra --out /tmp/$a.$m -q >> $L 2>&1 || echo "$a $m failed" >> $L
  done
  echo "$a 1S1G mem vs disk: $(python3 .device/cmp-out.py /tmp/$a.mem /tmp/$a.disk)" >> $L
done
$T run --algo pr --graph /tmp/r20.tsr --topology /tmp/g256.yaml --iterations 10 --host-memory $LIM --out /tmp/pr256.disk --report $OUT/pr-r20-256.json -q >> $L 2>&1
$T run --algo pr --graph /tmp/r20.tsr --topology /tmp/g.yaml --iterations 10 --out /tmp/pr256.mem -q >> $L 2>&1
echo "pr GPU-only 256MiB from disk vs in memory: $(python3 .device/cmp-out.py /tmp/pr256.mem /tmp/pr256.disk)" >> $L
G=/tmp/g26.tsr
drop() { python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)" $G; }
$T generate rmat --scale 26 --out $G >> $L 2>&1
ls -l $G >> $L
echo "== dd buffered (cold)" >> $L; drop; dd if=$G of=/dev/null bs=64M >> $L 2>&1
echo "== model pr GPU-only (2 GiB GPU), host memory 2GiB" >> $L
$T model --graph $G --algo pr --topology /tmp/g2.yaml --host-memory 2GiB --passes 10 >> $L 2>&1
for k in 1 2 3; do
echo "== pr GPU-only (2 GiB GPU) from disk, host memory 2GiB, run $k" >> $L; drop
$T run --algo pr --graph $G --topology /tmp/g2.yaml --iterations 10 --host-memory 2GiB --report $OUT/pr-gpu2-disk-$k.json --out /tmp/prg.disk$k >> $L 2>&1
done
echo "== dd buffered (cold), again" >> $L; drop; dd if=$G of=/dev/null bs=64M >> $L 2>&1
echo "== pr GPU-only in memory" >> $L
$T run --algo pr --graph $G --topology /tmp/g.yaml --iterations 10 --report $OUT/pr-gpu-mem.json --out /tmp/prg.mem >> $L 2>&1
echo "pr GPU-only mem vs disk run 1: $(python3 .device/cmp-out.py /tmp/prg.mem /tmp/prg.disk1)" >> $L
date >> $L
