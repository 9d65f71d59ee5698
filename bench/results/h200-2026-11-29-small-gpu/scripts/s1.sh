#!/bin/bash
# Call 1 (nvidia-h200): every built-in on the socket alone (16 threads) against one GPU owning every edge (the default
# for a real GPU), warm engines (sm52.mjs), RMAT 14-22 weighted .tsr files (RMAT 22: the lighter programs only).
set -u
GEN=none
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
F=bench/results/h200-2026-11-29-small-gpu/scripts
t1=$(date +%s); for s in 14 16 18 20 22; do timeout 60 node dist/src/cli/main.js generate rmat --scale $s --weighted --out /tmp/g$s.tsr > /dev/null 2>&1; done; log generate $?
t1=$(date +%s); RUNS=4 HEAVY_EDGES=40000000 timeout 480 node $F/sm52.mjs "$PWD" /tmp/g14.tsr /tmp/g16.tsr /tmp/g18.tsr /tmp/g20.tsr /tmp/g22.tsr > /tmp/o/cells.jsonl 2> /tmp/o/err.txt; log cells $?
tar cJf $OUT/call1.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt; python3 - <<'PY'
import json
rows = {}
for l in open('/tmp/o/cells.jsonl'):
    d = json.loads(l); rows.setdefault((d['graph'], d['cell']), {})[d['conf']] = d.get('medianMs', d.get('error'))
for (g, c), v in rows.items(): print(g, c, 'cpu', v.get('0'), 'gpu', v.get('1'))
PY
tail -3 /tmp/o/err.txt
