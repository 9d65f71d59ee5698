#!/bin/bash
# Call 3 (build B with streaming stores in the copy pool's parts): gpu-check at GPU shares 1 and 0.6; wcc's first runs B against B then warm4.mjs, four engines each in turn; the read-backs with TESSERA_STREAM_COPY=0 (memcpy) against the default (streaming stores), wcc and PageRank, three engines each in turn.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-warm-touch/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2 3 4; do
  echo "== wcc B"; timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== wcc B+warm4"; PRE=$S/warm4.mjs timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
done > /tmp/o/wcc.txt 2>&1
for i in 1 2 3; do
  for p in wcc pr; do
    echo "== $p memcpy"; TESSERA_STREAM_COPY=0 timeout 60 node $S/ft.mjs $p /tmp/g24.tsr 6
    echo "== $p stream"; timeout 60 node $S/ft.mjs $p /tmp/g24.tsr 6
  done
done > /tmp/o/stream.txt 2>&1
python3 $S/ratios.py /tmp/o/wcc.txt > /tmp/o/ratios.txt; python3 $S/ratios.py /tmp/o/stream.txt >> /tmp/o/ratios.txt
grep -h "^==\|readState" /tmp/o/stream.txt > /tmp/o/stream-reads.txt
cat /tmp/o/ratios.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check share 1 rc $?"; tail -3 /tmp/o/check1.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench > /tmp/o/check06.txt 2>&1; echo "check share 0.6 rc $?"; tail -3 /tmp/o/check06.txt
tar cJf $OUT/call3.tar.xz -C /tmp/o .
