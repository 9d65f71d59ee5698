#!/bin/bash
# Call 2 (nvidia-h200): `tessera run` on RMAT 24 weighted's .tsr (page cache), wcc, configs/1S.yaml: the .tsr read on
# X_TSR_THREADS threads (16 = one a core, as now; 12, 8, 4) with the sockets' threads started after the load (as now)
# or during it (X_PRESTART=1), three rounds. Both knobs were a temporary build for this call (not kept).
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
F=bench/results/h200-2026-11-29-startup/scripts
run() { # threads prestart
  local s=$(date +%s%N)
  X_TSR_THREADS=$1 X_PRESTART=$2 node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc --topology configs/1S.yaml -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  local rc=$? e=$(date +%s%N)
  echo "== threads $1 prestart $2 rc=$rc wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
  head -3 /tmp/o/err.txt
}
t1=$(date +%s); for round in 1 2 3; do for th in 16 12 8 4; do for pre in 0 1; do run $th $pre; done; done; done > /tmp/o/walls.txt 2>&1; log walls $?
tar cJf $OUT/call2.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt; sort -k3,3n -k5,5n /tmp/o/walls.txt
