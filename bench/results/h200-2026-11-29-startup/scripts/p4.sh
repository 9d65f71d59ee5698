#!/bin/bash
# Call 4 (nvidia-h200): A (3ffedf2) against B (this session's last build: call 3's plus a detected GPU left idle on a
# graph file under 32 MiB or a generator spec of under 2 M edges, in `tessera run` and the library's run()) in turn:
# `tessera run --algo wcc` walls with the detected topology on RMAT 12, 16 and 20 weighted .tsr files (five rounds)
# and RMAT 24 (two); then run() on rmat:14 and rmat:18 (generated in memory) with the detected topology, A and B.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
F=bench/results/h200-2026-11-29-startup/scripts
for s in 12 16 20; do timeout 60 node dist/src/cli/main.js generate rmat --scale $s --weighted --out /tmp/g$s.tsr > /dev/null 2>&1; done
run() { # build graph
  local D=dist; [ $1 = A ] && D=.device/A/dist
  local s=$(date +%s%N)
  node $D/src/cli/main.js run --graph $2 --algo wcc --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  local rc=$? e=$(date +%s%N)
  echo "== $1 $(basename $2 .tsr) auto rc=$rc wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2),r['topology']['name'])")"
  grep "stays idle" /tmp/o/err.txt | head -1
}
t1=$(date +%s); for round in 1 2 3 4 5; do for g in g12 g16 g20; do for b in A B; do run $b /tmp/$g.tsr; done; done; done > /tmp/o/walls.txt 2>&1
for round in 1 2; do for b in A B; do run $b /tmp/g24.tsr; done; done >> /tmp/o/walls.txt 2>&1; log walls $?
t1=$(date +%s); for b in A B; do D=$PWD/dist; [ $b = A ] && D=$PWD/.device/A/dist; for s in 14 18; do
  echo "== $b run() rmat:$s"; timeout 60 node --input-type=module -e "
    const { generate, run } = await import('$D/src/index.js');
    const g = generate('rmat:$s:weighted');
    const t0 = performance.now();
    const r = await run(g, 'wcc');
    console.log('ms', (performance.now() - t0).toFixed(0), 'gpus', r.report.topology.gpus.length, 'total', r.report.totalMs.toFixed(2));
  " 2>&1 | grep -v "^(Use"; done; done > /tmp/o/library.txt 2>&1; log library $?
tar cJf $OUT/call4.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/library.txt; python3 - <<'PY'
import re, statistics as st
w = {}
for l in open('/tmp/o/walls.txt'):
    m = re.match(r'== (\w) (\w+) (\S+) rc=(\d+) wall_ms (\d+) load (\d+) start (\d+) total ([\d.]+) (\S+)', l)
    if m: w.setdefault((m[2], m[1]), []).append((int(m[5]), int(m[7]), float(m[8]), m[9]))
for k in sorted(w):
    xs = w[k]; print(k, 'wall med', st.median(x[0] for x in xs), [x[0] for x in xs], 'start med', st.median(x[1] for x in xs), 'total med', st.median(x[2] for x in xs), xs[0][3])
PY
grep -c "stays idle" /tmp/o/walls.txt
