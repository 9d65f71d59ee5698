#!/bin/bash
# Call 8: the streamed pages' locks on the controller's pinner thread (HEAD), a session's runs as call 5 (sr.mjs, RMAT 24 weighted, one GPU at 2 GiB), twice each; gpu-check at GPU shares 1 and 0.6.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
S=bench/results/h200-2026-11-29-weightless-pages/scripts
for i in 1 2; do
  echo "== pr"; MEM=2GiB PARAMS='{"iterations":10}' node $S/sr.mjs pr /tmp/g24.tsr 5
  echo "== bfs"; MEM=2GiB PARAMS='{"source":0}' node $S/sr.mjs bfs /tmp/g24.tsr 5
done > /tmp/o/session.txt 2>&1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
tar cJf $OUT/call8.tar.xz -C /tmp/o .
cat /tmp/o/session.txt; for f in /tmp/o/check1.txt /tmp/o/check06.txt; do tail -n 2 $f; done
