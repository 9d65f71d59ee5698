# Sourced by pN.sh on the device: node, the production modules, the run's environment, the output folder, the machine's description, RMAT 24 weighted as /tmp/g24.tsr.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-29-warm-reps/scripts
P=bench/results/h200-2026-11-29-pinned-outputs/scripts
W=bench/results/h200-2026-11-28-warm-touch/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
