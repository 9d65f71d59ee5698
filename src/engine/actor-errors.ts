/** The one-line errors of actors that fail to open their device or fail in a superstep. */
import { TesseraError } from '../errors.js';
import type { Topology } from '../topology/schema.js';
import type { ErrorFrame } from '../wire/frames.js';
import { KERNEL_THREW } from './run-tasks.js';

/**
 * An actor's failure in a run (`gpu`: its index among the GPUs, -1 for a socket; `at`: where the
 * run was) as one line with the fix.
 */
export function stepError(f: ErrorFrame, gpu: number, at: string, topology: Topology): TesseraError {
  const resume = 'with --checkpoint DIR, --resume DIR continues from the last checkpoint';
  return (
    f.code === 'TS_INPUT' && KERNEL_THREW.test(f.message)
      ? new TesseraError(`actor ${f.actor} failed ${at}: ${splitFix(f.message).problem.replace(/\.$/, '')}`, { fix: splitFix(f.message).fix })
      : f.code === 'TS_INPUT'
      ? new TesseraError(f.message)
      : f.code === 'TS_OOM' && gpu >= 0
      ? new TesseraError(`GPU actor ${f.actor} failed ${at}: ${splitFix(f.message).problem}`, {
          file: topology.source,
          key: `gpus.${gpu}.memoryLimit`,
          fix: `raise memoryLimit, lower pageEdges (smaller pages stream through a smaller cache) or lower gpuShare (${resume})`,
        })
      : f.code === 'TS_OPERATOR'
        ? new TesseraError(`GPU actor ${f.actor}: ${splitFix(f.message).problem}`, { fix: splitFix(f.message).fix ?? 'correct the program\'s GPU operators' })
        : gpu >= 0
          ? new TesseraError(`GPU actor ${f.actor} failed ${at}: ${splitFix(f.message).problem.replace(/\.$/, '')}`, { file: topology.source, key: `gpus.${gpu}`, fix: `check the device with nvidia-smi, or run on the CPU sockets (${resume})` })
          : new TesseraError(`actor ${f.actor} failed ${at}: ${f.message.replace(/\.$/, '')}`, { fix: `this is a bug or an out-of-memory condition; rerun with fewer threads or a smaller graph and report it (${resume})` }));
}

/** A native message "problem. Fix: how" as its two parts. */
export function splitFix(message: string): { problem: string; fix: string | undefined } {
  const at = message.indexOf(' Fix: ');
  return at < 0 ? { problem: message, fix: undefined } : { problem: message.slice(0, at), fix: message.slice(at + 6).replace(/\.$/, '') };
}

/** A GPU actor could not open its device: one clear line naming the topology file and key. */
export function gpuOpenError(t: Topology, i: number, f: ErrorFrame): TesseraError {
  const gpu = t.gpus[i]!;
  const file = t.source;
  const { problem, fix } = splitFix(f.message);
  switch (f.code) {
    case 'TS_NO_NATIVE':
      return new TesseraError(`topology '${t.name}' lists GPU device ${gpu.device}, but the native GPU controller is not available: ${problem}`, {
        file,
        key: `gpus.${i}`,
        fix: 'run `node scripts/build-native.mjs` (needs cmake and a C++ compiler), or use a CPU-only topology such as configs/1S.yaml',
      });
    case 'TS_OOM':
      return new TesseraError(`GPU device ${gpu.device}: ${problem}`, { file, key: `gpus.${i}.memoryLimit`, fix: 'raise memoryLimit or lower pageEdges' });
    case 'TS_BAD_DEVICE':
    case 'TS_NO_DEVICE':
    case 'TS_NO_CUDA':
    case 'TS_CUDA':
      return new TesseraError(`topology '${t.name}' names GPU device ${gpu.device}, which cannot be used here: ${problem.replace(/\.$/, '')}`, {
        file,
        key: `gpus.${i}.device`,
        fix: gpu.emulated
          ? 'emulated devices are numbered 0..15'
          : `${fix !== undefined ? `${fix}; or ` : ''}use a device index that \`nvidia-smi -L\` lists, or set \`emulated: true\` to run this GPU actor on the host (configs/1S1G-emulated.yaml)`,
      });
    default:
      return new TesseraError(`GPU device ${gpu.device} of topology '${t.name}' could not be opened: ${problem}`, {
        file,
        key: `gpus.${i}`,
        fix: 'check the device with `nvidia-smi`, or set `emulated: true` to run this GPU actor on the host',
      });
  }
}
