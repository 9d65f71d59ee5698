#!/bin/bash
# Session 34 call 2 (the build with u16 as unsigned short: NVRTC has no uint16_t): gpu-check 1, 2 S,
# 2 P; the read-back alone (rb.mjs: 2^25 i32 values, plain / packed, staging threads default, 8, 4);
# bfs on RMAT 25 off / on interleaved, 1 GPU and 2 S, two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || { tar xJf .device/prod-modules.tar.xz -C /tmp; tar xJf .device/gmods.tar.xz -C /tmp/node_modules; }
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
( [ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 ) &
G=$!
timeout 100 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > $OUT/gc1.txt 2>&1; echo "gpu-check 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G
for th in default 8 4; do
  for nr in 0 1; do
    if [ $th = default ]; then TESSERA_NARROW_READ=$nr timeout 60 node .device/rb.mjs "$PWD" >> $OUT/rb.txt 2>&1
    else TESSERA_STAGING_THREADS=$th TESSERA_NARROW_READ=$nr timeout 60 node .device/rb.mjs "$PWD" >> $OUT/rb.txt 2>&1; fi
  done
done
echo "rb done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in off on; do
    NR=1; [ $b = off ] && NR=0
    TESSERA_NARROW_READ=$NR CONFIGS=1,2s CELLS=bfs RUNS=8 REPORTS=$OUT/reports-$b-$round.jsonl timeout 100 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,\"g\":25,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "speed done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t1=$(date +%s)
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
t1=$(date +%s)
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench > $OUT/gc2p.txt 2>&1; echo "gpu-check 2 P rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
echo "all done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf reports.tgz reports*.jsonl gen.txt speed.err 2>/dev/null && rm -f reports*.jsonl gen.txt speed.err
cat machine.txt | grep -v "^GPU"; tail -n 1 gc1.txt gc2s.txt gc2p.txt; cat rb.txt
python3 - speed.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    print(r['g'],r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
