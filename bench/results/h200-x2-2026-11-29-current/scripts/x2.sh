#!/bin/bash
# Call 2 (nvidia-h200-x2), build 80b3020: each GPU capped at 2 GiB, RMAT 25 unweighted GPU-only, one GPU against two
# with S and P, each run's page traffic (mg51.mjs PERRUN=1, 8 runs): bfs and pr, then bfs with TESSERA_PIN_PAGES=0
# (every streamed page through the staging ring): why two GPUs' bfs took three runs to reach its pace (call 1's sweep).
set -u
source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-current/scripts
t1=$(date +%s); MEMLIMIT=2147483648 PERRUN=1 CONFIGS=1,2s,2p CELLS=bfs,pr RUNS=8 timeout 150 node $F/mg51.mjs "$PWD" $TSR > /tmp/o/capped.jsonl 2>> /tmp/o/err.txt; log capped $?
t1=$(date +%s); TESSERA_PIN_PAGES=0 MEMLIMIT=2147483648 PERRUN=1 CONFIGS=1,2s CELLS=bfs RUNS=8 timeout 100 node $F/mg51.mjs "$PWD" $TSR > /tmp/o/capped-nopin.jsonl 2>> /tmp/o/err.txt; log nopin $?
tar cJf $OUT/call2.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -4; cut -c1-400 /tmp/o/capped.jsonl /tmp/o/capped-nopin.jsonl | grep -v '"medianMs"'; grep -h -o '"conf[^[]*\[[^]]*\]' /tmp/o/capped*.jsonl; tail -3 /tmp/o/err.txt
