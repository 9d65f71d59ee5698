#!/bin/bash
# Call 5 (nvidia-h200-x2), the model with a GPU's slots sized over both orientations' pages and its bytes per vertex
# measured at calibration: the bench harness's two-GPU streaming sweep (a fresh calibration: the model's P/S choice),
# and RMAT 25 pr capped at 2 GiB on two GPUs with P and with S (mg51.mjs, 6 runs) in the same call.
set -u
source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-current/scripts
t1=$(date +%s); timeout 300 node dist/src/cli/main.js bench --config bench/gpu2-streaming-rmat25.yaml --out-dir /tmp/o/bench --no-progress > /tmp/o/bench.txt 2>&1; log bench $?
t1=$(date +%s); MEMLIMIT=2147483648 CONFIGS=2p,2s CELLS=pr RUNS=6 timeout 60 node $F/mg51.mjs "$PWD" $TSR > /tmp/o/capped.jsonl 2>> /tmp/o/err.txt; log capped $?
cp /tmp/tcache/calibration.json /tmp/o/ 2>/dev/null
tar cJf $OUT/call5.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -4; grep -h -o '"conf[^[]*\[[^]]*\]' /tmp/o/capped.jsonl; grep "ms\|done" /tmp/o/bench.txt | tail -14; grep -o '"gpuStateBytesPerVertex": [0-9.]*' /tmp/o/calibration.json; tail -3 /tmp/o/err.txt
