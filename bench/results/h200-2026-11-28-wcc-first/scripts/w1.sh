#!/bin/bash
# Call 1: the session's starting build (77a50f2), one H200, RMAT 24 weighted, GPU-only, preloaded, results kept: wcc's and bfs's first runs traced and profiled (ft.mjs), plain and with V8's --always-sparkplug / --no-lazy-feedback-allocation; bc's later runs with takePooled (so.mjs, 6 runs, two engines).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-wcc-first/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2; do for c in wcc bfs; do
  echo "== plain $c"; PROFILE=/tmp/o/prof-$c-$i timeout 60 node $S/ft.mjs $c /tmp/g24.tsr 6
  echo "== sparkplug $c"; timeout 60 node --always-sparkplug $S/ft.mjs $c /tmp/g24.tsr 6 | sed -n '1,7p'
  echo "== nolazyfb $c"; timeout 60 node --no-lazy-feedback-allocation $S/ft.mjs $c /tmp/g24.tsr 6 | sed -n '1,7p'
done; done > /tmp/o/first.txt 2>&1
for i in 1 2; do echo "== GPU bc"; PARAMS='{"sources":4,"seed":48}' GPU=1 KEEP=1 timeout 60 node bench/results/h200-2026-11-28-bc-sources/scripts/so.mjs bc /tmp/g24.tsr 6; done > /tmp/o/bc.txt 2>&1
for d in /tmp/o/prof-*; do for f in $d/*.cpuprofile; do echo "== $f"; python3 .device/topprof.py $f 30; done; done > /tmp/o/prof-top.txt 2>&1
tar cJf $OUT/call1.tar.xz -C /tmp/o --exclude='prof-*' . ; tar cJf $OUT/profiles.tar.xz -C /tmp/o $(cd /tmp/o && ls -d prof-*)
cat /tmp/o/first.txt | grep -v "^[0-9.]*	" ; cat /tmp/o/bc.txt
