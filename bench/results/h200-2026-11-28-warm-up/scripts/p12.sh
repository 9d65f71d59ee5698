#!/bin/bash
# Session 39 call 12: the graphology harness (bench/graphology-small.yaml) for louvain with the session's build.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
tar xJf .device/graph-mods.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
timeout 250 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/h --no-progress > $OUT/harness.txt 2>&1
cp /tmp/h/*/results.md $OUT/harness.md
grep -E "louvain \|" /tmp/h/*/results.md | cut -c1-220; tail -2 $OUT/harness.txt
