set -x
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/machine.txt; lscpu | head -20 >> $OUT/machine.txt
timeout 60 python3 .device/gpu_anchors.py > $OUT/anchors.txt 2>&1
node scripts/gpu-check.mjs --scale 18 --no-bench --no-snap --programs louvain --json $OUT/gc-louvain.json > $OUT/gc.txt 2>&1
node scripts/gpu-check.mjs --scale 16 --no-bench --no-snap --programs louvain --gpu-share 1 --json $OUT/gc-louvain-all.json >> $OUT/gc.txt 2>&1
node .device/lv.mjs rmat:18:weighted 1 0 > $OUT/lv18w.txt 2>&1
node .device/lv.mjs rmat:21 2 > $OUT/lv21.txt 2>&1
cat $OUT/*.txt | tail -40
