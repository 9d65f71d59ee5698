#!/bin/bash
# Call 7 (the first attempt lacked graphology on the host: .device/graph-mods.tar.xz, its packages from this checkout, now unpacked into /tmp/node_modules): the graphology harness for louvain (bench/graphology-small.yaml: RMAT 10, 12, 16; each cell a fresh process, 3 runs after 1) with the session's last code.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
tar xJf .device/graph-mods.tar.xz -C /tmp
timeout 400 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/h --no-progress > /tmp/o/harness.txt 2>&1; echo "rc $?" >> /tmp/o/harness.txt
cp /tmp/h/*.md /tmp/o/ 2>/dev/null
tar cJf $OUT/call7.tar.xz -C /tmp/o .
tail -n 30 /tmp/o/harness.txt
