#!/bin/bash
# Session 35 call 8 (nvidia-h100-x1): which threads of the process are busy while bfs's team runs
# (barriers spinning 2 ms)? top -H samples during 300 warm runs; /proc stat of every thread.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/tl.mjs bfs /tmp/g.tsr 400 > /tmp/o/tl.txt 2>&1 &
P=$!
sleep 6
for i in 1 2 3; do top -b -H -n 1 -d 0.3 -p $P | head -32 > /tmp/o/top$i.txt; sleep 0.5; done
for t in /proc/$P/task/*; do echo "$(cat $t/comm) $(awk '{print $14, $15, $39}' $t/stat)"; done > /tmp/o/threads.txt
cat /proc/$P/status | grep -i ctxt >> /tmp/o/threads.txt
wait $P
cat /proc/loadavg >> /tmp/o/threads.txt
tar cJf $OUT/all.tar.xz -C /tmp o
sed -n 2p /tmp/o/tl.txt; cat /tmp/o/top2.txt | tail -26; sort /tmp/o/threads.txt | uniq -c | sort -rn | head -40
