# Sourced by the call scripts on the device (folded out of them after the calls): node, the production modules, the
# run's environment, the output folder /tmp/o with the machine's description, log(), and GEN (default
# "rmat --scale 25"; none: no graph) generated once as /tmp/$TSR (default g.tsr).
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
F=bench/results/h200-x2-2026-11-29-current/scripts
rm -rf /tmp/o; mkdir -p /tmp/o; T0=$(date +%s)
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
log() { echo "$1 rc=$2 $(( $(date +%s) - t1 ))s (at $(( $(date +%s) - T0 ))s)" >> /tmp/o/machine.txt; }
TSR=/tmp/${TSR:-g.tsr}
t1=$(date +%s); [ "${GEN:-}" = none ] || [ -f $TSR ] || timeout 150 node dist/src/cli/main.js generate ${GEN:-rmat --scale 25} --out $TSR > /tmp/o/gen.txt 2>&1; log generate $?
# A's build (.device/A.tar.xz: dist, package.json, native/src) beside this one, where a call compares two.
if [ -f .device/A.tar.xz ]; then rm -rf .device/A; tar xJf .device/A.tar.xz -C .device; ln -sfn /tmp/node_modules .device/A/node_modules; export TESSERA_NATIVE_DIR=$PWD/build/Release; fi
