#!/bin/bash
# Review check: the controller's staging loop refactor (stageChunks/readRange) on the real GPU.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
L=$OUT/log.txt
T="node dist/src/cli/main.js"
printf 'name: gpu-only-256MiB\nsockets:\n  - threads: auto\ngpus:\n  - { device: 0, memoryLimit: 256MiB }\nmodel: { gpuShare: 1 }\n' > /tmp/g2.yaml
$T convert rmat:20:weighted --page-edges 65536 --out /tmp/r20.tsr >> $L 2>&1
for a in bfs wcc pr; do
  src=""; [ $a = bfs ] && src="--source 0"
  for m in mem disk; do
    extra=""; [ $m = disk ] && extra="--host-memory 48MiB"
    $T run --algo $a $src --graph /tmp/r20.tsr --topology configs/1S1G.yaml --alpha 0.5 --steal off $extra --out /tmp/$a.$m > /tmp/$a.$m.log 2>&1 || { echo "$a $m failed"; cat /tmp/$a.$m.log; } >> $L
  done
  echo "$a 1S1G mem vs disk: $(python3 .device/cmp-out.py /tmp/$a.mem /tmp/$a.disk)" >> $L
done
for m in mem disk; do
  extra=""; [ $m = disk ] && extra="--host-memory 48MiB"
  $T run --algo pr --graph /tmp/r20.tsr --topology /tmp/g2.yaml $extra --out /tmp/prs.$m > /tmp/prs.$m.log 2>&1 || { echo "pr streamed $m failed"; cat /tmp/prs.$m.log; } >> $L
  grep -h "kernel calls" /tmp/prs.$m.log >> $L
done
echo "pr GPU-only 256 MiB (streamed) mem vs disk: $(python3 .device/cmp-out.py /tmp/prs.mem /tmp/prs.disk)" >> $L
