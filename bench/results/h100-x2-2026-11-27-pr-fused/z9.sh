#!/bin/bash
# Session 32 call 9: the landed build with pages streaming: gpu-check on 2 GPUs (S and P) with each GPU
# capped at 64 MiB (RMAT 20: pages stream); PageRank on RMAT 25 with each GPU capped at 2 GiB, 1 vs 2P vs 2S.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --memory-limit 64MiB --no-bench --json $OUT/gc2s-cap.json > $OUT/gc2s-cap.txt 2>&1; echo "gpu-check 2 S 64MiB rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --memory-limit 64MiB --no-bench --json $OUT/gc2p-cap.json > $OUT/gc2p-cap.txt 2>&1; echo "gpu-check 2 P 64MiB rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
MEMLIMIT=2147483648 CONFIGS=1,2p,2s CELLS=pr RUNS=6 timeout 200 node .device/mg26.mjs $PWD /tmp/g.tsr > $OUT/speed.jsonl 2> $OUT/speed.err; echo "capped pr $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf checks.tgz gc2s-cap.json gc2p-cap.json speed.err && rm -f gc2s-cap.json gc2p-cap.json speed.err && cd - >/dev/null
grep -v "^GPU" $OUT/machine.txt; tail -n 2 $OUT/gc2s-cap.txt $OUT/gc2p-cap.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
