#!/bin/bash
# x2 call A: gpu-check on 2 GPUs (P and S) at share 1 (the review's native refactor and pr's first
# iteration on real GPUs); RMAT 25 GPU-only, graph resident: 1 GPU vs 2 P vs 2 S, pr and bfs.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; nvidia-smi topo -m | head -4; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
for m in p s; do
  t1=$(date +%s)
  timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu $m --gpu-share 1 --scale 20 --no-bench --json /tmp/gc.json > $OUT/gc2$m.txt 2>&1; echo "gpu-check 2 $m share 1 rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
done
wait; echo "generate+checks $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
CONFIGS=1,2p,2s CELLS=pr,bfs RUNS=5 REPORTS=$OUT/reports.jsonl timeout 200 node .device/mg26.mjs "$PWD" /tmp/g.tsr >> $OUT/speed.jsonl 2>> $OUT/speed.err
echo "resident $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
gzip -f $OUT/reports.jsonl
cat $OUT/machine.txt | grep -v "^GPU"; tail -n 1 $OUT/gc2p.txt $OUT/gc2s.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['conf'],r['cell'],r['medianMs'],r['runs'],r.get('createMs'))
PY
