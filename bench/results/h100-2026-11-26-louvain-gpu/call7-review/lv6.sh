set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi --query-gpu=name,memory.total --format=csv; nproc; lscpu | grep -i "model name"; } > $OUT/machine.txt 2>&1
node scripts/gpu-check.mjs --scale 18 --no-bench --no-snap --programs louvain --json $OUT/gc-half.json > $OUT/gc.txt 2>&1
node scripts/gpu-check.mjs --scale 18 --no-bench --no-snap --programs louvain --gpu-share 1 --json $OUT/gc-all.json >> $OUT/gc.txt 2>&1
LV_CONFIGS=1S,GPU-only node .device/lv.mjs rmat:21 2 > $OUT/lv21.txt 2>&1
cat $OUT/machine.txt; grep -E "louvain|OK" $OUT/gc.txt; cut -c1-330 $OUT/lv21.txt
