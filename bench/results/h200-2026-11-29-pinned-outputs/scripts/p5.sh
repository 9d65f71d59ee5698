#!/bin/bash
# Call 5: which arrays B locks at create and whether the first wcc result's read-back met a locked one (pinlog.mjs), four engines; bfs and pr two each.
set -u
. bench/results/h200-2026-11-29-pinned-outputs/scripts/setup.sh
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for c in wcc wcc wcc wcc bfs bfs pr pr; do echo "== $c"; timeout 60 node $S/pinlog.mjs $c /tmp/g24.tsr; done > /tmp/o/pinlog.txt 2>&1
tar cJf $OUT/call5.tar.xz -C /tmp/o .
cat /tmp/o/pinlog.txt | grep -v "^readState.*0.0[0-9] ms"
