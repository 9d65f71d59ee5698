#!/bin/bash
# Session 39 call 3: a fresh engine's runs 1-12 (cv.mjs), bfs and wcc on RMAT 22, 16 threads: A (4a2bf3e) against B (the warm-up run at create), in turn, 4 rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
tar xJf .device/A3.tar.xz -C /tmp; ln -sfn /tmp/node_modules /tmp/A3/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host
rm -rf /tmp/o; mkdir -p /tmp/o; nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt; nvidia-smi -L >> /tmp/o/machine.txt 2>&1
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for r in 1 2 3 4; do for p in bfs wcc; do
  echo "## $p round $r A" >> /tmp/o/cv.txt; ROOT=/tmp/A3 TESSERA_NATIVE_DIR=/tmp/A3/build/Release node .device/cv.mjs $p /tmp/g.tsr 12 >> /tmp/o/cv.txt 2>&1
  echo "## $p round $r B" >> /tmp/o/cv.txt; ROOT=$PWD node .device/cv.mjs $p /tmp/g.tsr 12 >> /tmp/o/cv.txt 2>&1
done; done
cat /tmp/o/machine.txt /tmp/o/cv.txt > $OUT/cv.txt
cat /tmp/o/machine.txt; python3 - <<'PY'
import re,statistics
blocks=open('/tmp/o/cv.txt').read().split('## ')[1:]
for b in blocks:
    lines=b.strip().split('\n'); head=lines[0]
    create=[l for l in lines if l.startswith('create')]
    t=[float(l.split()[1]) for l in lines[1:] if re.match(r'^\d+ ',l)]
    if len(t)<3: print(head,'FAILED',lines[-3:]); continue
    m=statistics.median(t[1:]); print(f"{head:18s} {create[0] if create else ''} first {t[0]:.1f} median {m:.1f} ratio {t[0]/m:.2f}")
PY
