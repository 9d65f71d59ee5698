#!/bin/bash
# Call 4 (nvidia-h200-x2): the detected topology with this session's last detection (a driver entry kept only where its
# /dev/nvidia<minor> exists), under CUDA_VISIBLE_DEVICES unset and 1, and a PageRank run on it.
set -u
GEN=none
source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
{ ls /dev/nvidia*; grep -h "Device Minor" /proc/driver/nvidia/gpus/*/information
  for v in unset 1; do if [ "$v" = unset ]; then E="env -u CUDA_VISIBLE_DEVICES"; else E="env CUDA_VISIBLE_DEVICES=$v"; fi
    echo "== CUDA_VISIBLE_DEVICES=$v"; $E node dist/src/cli/main.js topology detect | grep -v "^#"
    $E timeout 60 node dist/src/cli/main.js run --graph rmat:18 --algo pr -q --report /tmp/o/r.json > /dev/null; echo "run rc=$? $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print(r['topology']['name'], [a['actor'] for a in r['steps'][0]['actors']])")"; done; } > /tmp/o/detect.txt 2>&1
tar cJf $OUT/call4.tar.xz -C /tmp/o .
cat /tmp/o/detect.txt
