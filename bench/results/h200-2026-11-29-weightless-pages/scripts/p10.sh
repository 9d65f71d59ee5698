#!/bin/bash
# Call 10: a page's tiles staged with its bytes, one stream of chunks (B = build/Release) against a staged copy of its own (A = .device/Abuild, the addon before), the same dist, in turn:
# `tessera run` GPU-only wcc (report's start, the preload's span from tl.mjs), three each; a session's streamed runs (sr.mjs, 2 GiB, TESSERA_PIN_PAGES=0: every load staged) of PageRank and bfs; gpu-check with B at GPU share 1.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
T=bench/results/h200-2026-11-29-cli-timeline/scripts
S=bench/results/h200-2026-11-29-weightless-pages/scripts
for i in 1 2 3; do for b in A B; do
  if [ $b = A ]; then export TESSERA_NATIVE_DIR=$PWD/.device/Abuild; else unset TESSERA_NATIVE_DIR; fi
  node --import ./$T/tl.mjs dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  echo "== wcc $b start $(python3 -c "import json;print(round(json.load(open('/tmp/o/r.json'))['startMs']))") $(grep -E 'gpu.preload|gpu.registerPageSet' /tmp/o/err.txt | tr -s ' ' | tr '\n' ';')"
done; done > /tmp/o/preload.txt 2>&1
export TESSERA_PIN_PAGES=0
for i in 1 2; do for b in A B; do
  if [ $b = A ]; then export TESSERA_NATIVE_DIR=$PWD/.device/Abuild; else unset TESSERA_NATIVE_DIR; fi
  echo "== pr $b"; MEM=2GiB PARAMS='{"iterations":10}' node $S/sr.mjs pr /tmp/g24.tsr 4
  echo "== bfs $b"; MEM=2GiB PARAMS='{"source":0}' node $S/sr.mjs bfs /tmp/g24.tsr 4
done; done > /tmp/o/staged.txt 2>&1
unset TESSERA_PIN_PAGES TESSERA_NATIVE_DIR
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
tar cJf $OUT/call10.tar.xz -C /tmp/o .
cat /tmp/o/preload.txt /tmp/o/staged.txt; tail -n 2 /tmp/o/check1.txt
