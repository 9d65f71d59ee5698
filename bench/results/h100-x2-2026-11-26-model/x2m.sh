#!/bin/bash
# x2 call (this session): what the model predicts for P and S with each GPU capped at 2 GiB (RMAT 25, alpha 0)
# and which it picks, with the sweep's boundary counts on the addon (modelCount); the first run calibrates.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
sed -e 's/    streams: 4/    streams: 4\n    memoryLimit: 2GiB/' configs/1S2G.yaml > /tmp/1S2G-2GiB.yaml
for a in pr wcc; do
  t1=$(date +%s); left=$(( 500 - (t1 - t0) ))
  [ $left -lt 30 ] && break
  echo "== $a" >> $OUT/model.txt
  timeout $left script -qfc "$T model --graph /tmp/g.tsr --topology /tmp/1S2G-2GiB.yaml --algo $a --multi-gpu auto --alpha 0" /dev/null >> $OUT/model.txt 2>&1; echo "model $a rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
done
cp $TESSERA_CACHE_DIR/calibration.json $OUT/ 2>/dev/null
cat $OUT/machine.txt | grep -v "^GPU"; grep -i "chosen\|calibrated\|^==\|-P\b\|-S\b" $OUT/model.txt | head -40
