#!/bin/bash
# Session 36 call 8: which functions V8 optimizes (and deoptimizes) in a fresh engine's bfs runs (build C, RMAT 22, 16 threads)
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
MARK=1 node --trace-opt --trace-deopt .device/cv.mjs bfs /tmp/g.tsr 8 > /tmp/o/opt-bfs.txt 2>&1
MARK=1 node --trace-opt --trace-deopt .device/cv.mjs wcc /tmp/g.tsr 8 > /tmp/o/opt-wcc.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
grep -E "completed optimizing|bailout|deoptimiz" /tmp/o/opt-bfs.txt | grep -oE "<JSFunction [^ >]*|reason: [^)]*" | sort | uniq -c | sort -rn | head -40
