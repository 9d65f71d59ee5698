#!/bin/bash
# Call 3 (nvidia-h200): A (3ffedf2, session 51's last) against B (this session's build: the sockets' threads start
# during the load of a graph file under 1 GiB, GPUs detected from the driver's /proc entries, the summary's numbers
# formatted without Intl) in turn: `tessera run` walls (without -q: the summary printed) on RMAT 12, 16, 20 and 24
# weighted .tsr files, wcc, the detected topology (auto) and configs/1S.yaml, five rounds; then CUDA_VISIBLE_DEVICES=""
# (no GPU visible to CUDA) with the detected topology, A and B.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
F=bench/results/h200-2026-11-29-startup/scripts
for s in 12 16 20; do timeout 60 node dist/src/cli/main.js generate rmat --scale $s --weighted --out /tmp/g$s.tsr > /dev/null 2>&1; done
run() { # build graph topology
  local D=dist; [ $1 = A ] && D=.device/A/dist
  local TA=""; [ $3 != auto ] && TA="--topology $3"
  local s=$(date +%s%N)
  node $D/src/cli/main.js run --graph $2 --algo wcc $TA --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  local rc=$? e=$(date +%s%N)
  echo "== $1 $(basename $2 .tsr) $(basename $3 .yaml) rc=$rc wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
  grep -v "^ \|supersteps\|edges/s\|time:\|^tessera: wcc" /tmp/o/err.txt | head -3
}
t1=$(date +%s); for round in 1 2 3 4 5; do for g in g12 g16 g20 g24; do for topo in auto configs/1S.yaml; do for b in A B; do run $b /tmp/$g.tsr $topo; done; done; done; done > /tmp/o/walls.txt 2>&1; log walls $?
t1=$(date +%s); for b in A B; do D=dist; [ $b = A ] && D=.device/A/dist; echo "== $b CUDA_VISIBLE_DEVICES=''"; CUDA_VISIBLE_DEVICES= timeout 60 node $D/src/cli/main.js run --graph rmat:14 --algo pr --out /tmp/o/pr-$b.txt 2>&1 | tail -4; echo "rc=${PIPESTATUS[0]}"; done > /tmp/o/visible.txt 2>&1; cmp /tmp/o/pr-A.txt /tmp/o/pr-B.txt >> /tmp/o/visible.txt 2>&1; log visible $?
rm -f /tmp/o/pr-*.txt; tar cJf $OUT/call3.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/visible.txt; python3 - <<'PY'
import re, statistics as st
w = {}
for l in open('/tmp/o/walls.txt'):
    m = re.match(r'== (\w) (\w+) (\S+) rc=(\d+) wall_ms (\d+) load (\d+) start (\d+) total ([\d.]+)', l)
    if m: w.setdefault((m[2], m[3], m[1]), []).append((int(m[5]), int(m[6]), int(m[7]), float(m[8])))
for k in sorted(w):
    xs = w[k]; print(k, 'wall med', st.median(x[0] for x in xs), [x[0] for x in xs], 'load med', st.median(x[1] for x in xs), 'start med', st.median(x[2] for x in xs), 'total med', st.median(x[3] for x in xs))
PY
