/**
 * The GPUs of a topology opened ahead of an engine (prestart.ts): each controller's thread starts
 * the CUDA driver and makes its context (~0.65 s on the H200 hosts, about as long as reading RMAT
 * 24's .tsr), so the CLI starts this as soon as it has the topology, before the rest of the
 * engine's modules are imported.
 */
import { GpuController } from '../../actors/gpu/native.js';
import type { Topology } from '../topology/schema.js';
import { faultAt } from './faults.js';

/** Each GPU's controller, or undefined where the addon or the device cannot open it (Engine.create then says why). */
export function openGpus(topology: Topology): Array<Promise<GpuController | undefined>> {
  // Not through nativeAvailable(): its device count starts the CUDA driver on this thread
  // (~0.2 s on the H100 hosts, stalling a load's reads); the controller's thread starts it here.
  return topology.gpus.map((g) => (faultAt('gpu-gone') ? Promise.resolve(undefined) : openEarly(g)));
}

function openEarly(g: Topology['gpus'][number]): Promise<GpuController | undefined> {
  try {
    return GpuController.create({ device: g.device, emulated: g.emulated, memoryLimit: g.memoryLimit, streams: g.streams }).catch(() => undefined);
  } catch {
    return Promise.resolve(undefined);
  }
}
