#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nvidia-smi topo -m > $OUT/topo.txt 2>&1; lscpu | head -20 >> $OUT/topo.txt
node .device/mb.mjs | tee $OUT/mb.txt
TESSERA_STAGING_THREADS=16 node .device/mb.mjs | tee -a $OUT/mb.txt
TESSERA_STAGING_THREADS=2 node .device/mb.mjs | tee -a $OUT/mb.txt
timeout 60 python3 .device/gpu_anchors.py --help 2>&1 | head -5
cat $OUT/topo.txt | head -12
