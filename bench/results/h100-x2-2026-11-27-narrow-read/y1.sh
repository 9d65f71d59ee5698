#!/bin/bash
# Session 34 call 1: one build, TESSERA_NARROW_READ=0 ("off": the read-back as before) against the
# default ("on": integer state packed on the device, widened on the host), interleaved: bfs on
# RMAT 25 on 1 GPU / 2 S / 2 P, two rounds; bfs, wcc on RMAT 24, one GPU; gpu-check 1, 2 S, 2 P
# (packing on); anchors (PCIe, cuSPARSE).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || { tar xJf .device/prod-modules.tar.xz -C /tmp; tar xJf .device/gmods.tar.xz -C /tmp/node_modules; }
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
( [ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; [ -f /tmp/g24.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --out /tmp/g24.tsr >> $OUT/gen.txt 2>&1 ) &
G=$!
timeout 100 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > $OUT/gc1.txt 2>&1; echo "gpu-check 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G
echo "gen done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in off on; do
    NR=1; [ $b = off ] && NR=0
    TESSERA_NARROW_READ=$NR CONFIGS=1,2s,2p CELLS=bfs RUNS=8 REPORTS=$OUT/reports-$b-$round.jsonl timeout 100 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,\"g\":25,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
for b in off on; do
  NR=1; [ $b = off ] && NR=0
  TESSERA_NARROW_READ=$NR CONFIGS=1 CELLS=bfs,wcc RUNS=8 REPORTS=$OUT/reports24-$b.jsonl timeout 100 node .device/mg26.mjs "$PWD" /tmp/g24.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":1,\"g\":24,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "speed done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t1=$(date +%s)
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
t1=$(date +%s)
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench > $OUT/gc2p.txt 2>&1; echo "gpu-check 2 P rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
timeout 120 python3 .device/gpu_anchors.py 25 > $OUT/anchors.txt 2>&1; echo "anchors rc=$?" >> $OUT/machine.txt
echo "all done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf reports.tgz reports*.jsonl gen.txt speed.err 2>/dev/null && rm -f reports*.jsonl gen.txt speed.err
cat machine.txt | grep -v "^GPU"; tail -n 1 gc1.txt gc2s.txt gc2p.txt; cat anchors.txt
python3 - speed.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    rd={a:round(x.get('readMs',0),2) for a,x in r['per'].items() if 'readMs' in x}
    print(r['g'],r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],'readMs',rd)
PY
