#!/bin/bash
# Call 3: the state read-backs' staging buffers' size and count (TESSERA_STAGE_CHUNK_KB, TESSERA_STAGE_BUFFERS) swept, two engines a setting in turn, GPU-only RMAT 24 weighted, wcc, bfs, pr (ft.mjs, 8 runs, results kept).
set -u
. bench/results/h200-2026-11-29-pinned-outputs/scripts/setup.sh
FT=bench/results/h200-2026-11-28-warm-touch/scripts/ft.mjs
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for c in wcc bfs pr; do
  for i in 1 2; do
    for cfg in 8192:4 4096:8 2048:8 2048:16 1024:16 1024:32 512:32 16384:4; do
      echo "== $c $cfg"; TESSERA_STAGE_CHUNK_KB=${cfg%:*} TESSERA_STAGE_BUFFERS=${cfg#*:} timeout 60 node $FT $c /tmp/g24.tsr 8
    done
  done > /tmp/o/$c.txt 2>&1
  python3 $W/ratios.py /tmp/o/$c.txt >> /tmp/o/ratios.txt; python3 $W/phases.py /tmp/o/$c.txt >> /tmp/o/phases.txt
done
tar cJf $OUT/call3.tar.xz -C /tmp/o .
paste -d' ' <(cut -c1-70 /tmp/o/ratios.txt) <(sed 's/^.* read/read/' /tmp/o/phases.txt); grep -il "error" /tmp/o/*.txt | head -5
