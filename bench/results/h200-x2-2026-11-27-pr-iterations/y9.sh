#!/bin/bash
# Session 31 call 9: the model's pick for bfs with the GPUs' work shared by their vertices
# (gpuWorkByVertices), RMAT 25, two GPUs capped at 2 GiB and uncapped (tessera model --multi-gpu auto --alpha 0).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
sed -e 's/    streams: 4/    streams: 4\n    memoryLimit: 2GiB/' configs/1S2G.yaml > /tmp/1S2G-2GiB.yaml
for topo in /tmp/1S2G-2GiB.yaml configs/1S2G.yaml; do
  t1=$(date +%s)
  echo "== bfs $topo" >> $OUT/model.txt; timeout 150 $T model --graph /tmp/g.tsr --topology $topo --algo bfs --multi-gpu auto --alpha 0 >> $OUT/model.txt 2>&1; echo "model bfs $topo rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
done
cat $OUT/machine.txt | grep -v "^GPU"; grep -E "^==|^alpha|^0.000|chosen" $OUT/model.txt
