#!/bin/bash
# Call 5: which arrays B locks at create and whether the first wcc result's read-back met a locked one (pinlog.mjs), four engines; bfs and pr two each.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-29-pinned-outputs/scripts
W=bench/results/h200-2026-11-28-warm-touch/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for c in wcc wcc wcc wcc bfs bfs pr pr; do echo "== $c"; timeout 60 node $S/pinlog.mjs $c /tmp/g24.tsr; done > /tmp/o/pinlog.txt 2>&1
tar cJf $OUT/call5.tar.xz -C /tmp/o .
cat /tmp/o/pinlog.txt | grep -v "^readState.*0.0[0-9] ms"
