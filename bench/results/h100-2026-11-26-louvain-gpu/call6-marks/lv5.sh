set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && for l in node_modules build native package.json; do ln -sfn "$PWD/$l" /tmp/before/$l; done
cp .device/lv.mjs /tmp/before/lv.mjs
{ nvidia-smi --query-gpu=name,memory.total --format=csv; nproc; lscpu | grep -i "model name"; } > $OUT/machine.txt 2>&1
for r in 1 2; do
(cd /tmp/before && LV_CONFIGS=1S,GPU-only node lv.mjs rmat:21 2) > $OUT/before21-$r.txt 2>&1
LV_CONFIGS=1S,GPU-only node .device/lv.mjs rmat:21 2 > $OUT/after21-$r.txt 2>&1
done
node scripts/gpu-check.mjs --scale 18 --no-bench --no-snap --programs louvain --gpu-share 1 --json $OUT/gc.json > $OUT/gc.txt 2>&1
cat $OUT/machine.txt; for f in $OUT/*21-*.txt; do echo "== $f"; cut -c1-300 $f | grep GPU-only; done; tail -3 $OUT/gc.txt
