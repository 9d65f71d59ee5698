xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr 2>&1 | tail -1
for c in wcc pr bfs; do FIRST=1 RUNS=4 CELLS=$c node .device/rt.mjs /tmp/g24.tsr > $OUT/rt-$c.txt 2>&1; head -3 $OUT/rt-$c.txt; done
