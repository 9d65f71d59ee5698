#!/bin/bash
# Call 1 (nvidia-h200-x2), B = this session's build (native code as 3ffedf2, session 51's last, which did not run on a
# device): gpu-check on two GPUs with --multi-gpu p and s; the detected topology under CUDA_VISIBLE_DEVICES with A
# (3ffedf2: GPUs from nvidia-smi) and B (the driver's /proc entries narrowed by the variable); resident RMAT 25 bfs,
# one GPU against two (S), with each controller's copy pool at its default (half the cores, at most 16) and at 32
# threads (TESSERA_STAGING_THREADS).
set -u
source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-session52/scripts
M=bench/results/h200-x2-2026-11-29-current/scripts/mg51.mjs
t1=$(date +%s); { for v in unset 1 0,1 GPU-bogus ""; do for b in A B; do D=dist; [ $b = A ] && D=.device/A/dist
  if [ "$v" = unset ]; then E="env -u CUDA_VISIBLE_DEVICES"; else E="env CUDA_VISIBLE_DEVICES=$v"; fi
  echo "== $b CUDA_VISIBLE_DEVICES=$v"; $E node $D/src/cli/main.js topology detect | grep -v "^#"
  $E timeout 60 node $D/src/cli/main.js run --graph rmat:14 --algo pr -q --report /tmp/o/r.json > /dev/null; echo "run rc=$? $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print(r['topology'] if isinstance(r['topology'],str) else r['topology'].get('name'), [a['actor'] for a in r['steps'][0]['actors']])" 2>&1)"; rm -f /tmp/o/r.json
done; done; } > /tmp/o/visible.txt 2>&1; log visible $?
t1=$(date +%s); timeout 100 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench > /tmp/o/gc2p.txt 2>&1; log "gpu-check 2 p" $?
t1=$(date +%s); timeout 100 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench > /tmp/o/gc2s.txt 2>&1; log "gpu-check 2 s" $?
for th in default 32 default 32; do t1=$(date +%s); if [ $th = default ]; then E="env -u TESSERA_STAGING_THREADS"; else E="env TESSERA_STAGING_THREADS=$th"; fi
  $E CONFIGS=1,2s CELLS=bfs RUNS=10 timeout 100 node $M "$PWD" $TSR 2>> /tmp/o/err.txt | sed "s/^/{\"threads\":\"$th\",\"r\":/; s/$/}/" >> /tmp/o/resident.jsonl; log "resident $th" $?; done
tar cJf $OUT/call1.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -8; cat /tmp/o/visible.txt; tail -n 1 /tmp/o/gc2p.txt /tmp/o/gc2s.txt; python3 - <<'PY'
import json
for l in open('/tmp/o/resident.jsonl'):
    d=json.loads(l); r=d['r']
    if 'median' in r or 'medianMs' in r: print(d['threads'], r.get('conf'), r.get('cell'), r.get('median', r.get('medianMs')), r.get('phases', {}).get('settleMs') if isinstance(r.get('phases'),dict) else '')
PY
tail -3 /tmp/o/err.txt
