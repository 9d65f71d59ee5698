#!/bin/bash
# Issue 25: GPU actors walk only the pages with an unreached vertex in BFS's pull levels
# (pullIf on GPUs): RMAT 26, GPU-only with the GPU capped at 2 GiB (pages stream), from disk
# (2 GiB host memory) and from memory, the build before (c624193) and after, alternating.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && for l in node_modules build native package.json; do ln -sfn "$PWD/$l" /tmp/before/$l; done
export TESSERA_CACHE_DIR=/tmp/tcache
L=$OUT/log.txt
{ nvidia-smi --query-gpu=name,memory.total --format=csv; nproc; } >> $L 2>&1
A="node dist/src/cli/main.js"; B="node /tmp/before/dist/src/cli/main.js"
# Correctness: 1S1G at alpha 0.5 from disk (a quarter of the file) against in memory.
$A generate rmat --scale 20 --weighted --page-edges 65536 --out /tmp/r20.tsr >> $L 2>&1
LIM=$(python3 -c "import os; print(os.path.getsize('/tmp/r20.tsr')//4)")
for a in wcc pr cdlp bfs scc; do
  src=""; [ $a = bfs ] && src="--source 0"
  for m in mem disk; do
    extra=""; [ $m = disk ] && extra="--host-memory $LIM"
    timeout 60 $A run --algo $a $src --graph /tmp/r20.tsr --topology configs/1S1G.yaml --alpha 0.5 --steal off $extra --out /tmp/$a.$m -q >> $L 2>&1 || echo "$a $m failed" >> $L
  done
  echo "$a 1S1G mem vs disk: $(python3 .device/cmp-out.py /tmp/$a.mem /tmp/$a.disk)" >> $L
done
printf 'name: gpu-only-2GiB\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0, memoryLimit: 2GiB }\nmodel: { gpuShare: 1 }\n' > /tmp/g2.yaml
G=/tmp/g26.tsr
drop() { python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)" $G; }
$A generate rmat --scale 26 --out $G >> $L 2>&1
echo "== dd buffered (cold)" >> $L; drop; dd if=$G of=/dev/null bs=64M >> $L 2>&1
for k in 1 2; do
  for b in before after; do
    T=$A; [ $b = before ] && T=$B
    echo "== bfs GPU-only (2 GiB GPU) from disk, host memory 2GiB, $b, run $k" >> $L; drop
    timeout 120 $T run --algo bfs --source 0 --graph $G --topology /tmp/g2.yaml --host-memory 2GiB --report $OUT/bfs-disk-$b-$k.json --out /tmp/bfs.disk.$b >> $L 2>&1
  done
done
echo "bfs from disk before vs after: $(python3 .device/cmp-out.py /tmp/bfs.disk.before /tmp/bfs.disk.after)" >> $L
for b in before after; do
  T=$A; [ $b = before ] && T=$B
  echo "== bfs GPU-only (2 GiB GPU) in memory, $b" >> $L
  timeout 120 $T run --algo bfs --source 0 --graph $G --topology /tmp/g2.yaml --report $OUT/bfs-mem-$b.json >> $L 2>&1
done
date >> $L
grep -E "==|supersteps \(|pages from disk|kernel calls|1S1G|differ|copied," $L | cut -c1-220
