#!/bin/bash
# Session 34 call 4: as call 3 (y3.sh), "after" now also populating a huge page a madvise call (each call
# holds the mmap lock; one call a thread made the next run's allocations wait): GPU-only bfs on RMAT 25 on
# 1 GPU and 2 S, two rounds; bfs, wcc, pr on RMAT 24 on one GPU; CPU bfs and wcc on RMAT 24 (one
# socket of all 32 threads, tl.mjs, 20 runs); gpu-check 1 GPU.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || { tar xJf .device/prod-modules.tar.xz -C /tmp; tar xJf .device/gmods.tar.xz -C /tmp/node_modules; }
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before35.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp -r configs /tmp/B/
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
( [ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; [ -f /tmp/g24.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --out /tmp/g24.tsr >> $OUT/gen.txt 2>&1 ) &
G=$!
timeout 100 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > $OUT/gc1.txt 2>&1; echo "gpu-check 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G
echo "gen done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    CONFIGS=1,2s CELLS=bfs RUNS=8 REPORTS=$OUT/reports-$b-$round.jsonl timeout 100 node .device/mg26.mjs "$R" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,\"g\":25,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
for b in before after; do
  R=$PWD; [ $b = before ] && R=/tmp/B
  CONFIGS=1 CELLS=bfs,wcc,pr RUNS=8 REPORTS=$OUT/reports24-$b.jsonl timeout 100 node .device/mg26.mjs "$R" /tmp/g24.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":1,\"g\":24,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "gpu speed done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    for c in bfs wcc; do echo "== $b $round" >> $OUT/cpu.txt; ROOT=$R timeout 100 node .device/tl.mjs $c /tmp/g24.tsr 20 2>&1 | head -2 >> $OUT/cpu.txt; done
  done
done
echo "all done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf reports.tgz reports*.jsonl gen.txt speed.err 2>/dev/null && rm -f reports*.jsonl gen.txt speed.err
cat machine.txt | grep -v "^GPU"; tail -n 1 gc1.txt; cat cpu.txt
python3 - speed.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    print(r['g'],r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
