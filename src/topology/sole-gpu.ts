/**
 * A program whose fast GPU path needs one GPU owning every vertex (its definition's soleGpu: sssp's
 * buckets, bc's sources, each a device loop in one call) takes its far slower superstep path on
 * several GPUs: run() and the CLI give it the topology's first GPU alone, unless the set-up says
 * how several share the work (`shared`: multiGpu or ownership given), with a notice to say so.
 * And one run on a small graph leaves the machine's GPUs idle (idleGpusTopology).
 */
import type { Topology } from './schema.js';
import { withoutGpus } from './load.js';

export function soleGpuTopology(topology: Topology, program: { name: string; soleGpu?: boolean }, shared: boolean): { topology: Topology; notice?: string } {
  if (program.soleGpu !== true || topology.gpus.length < 2 || shared) return { topology };
  const first = topology.gpus[0]!;
  return {
    topology: { ...topology, gpus: [first] },
    notice: `program '${program.name}' runs on one GPU (device ${first.device}) of the topology's ${topology.gpus.length}: its GPU loop runs on one GPU owning every vertex, and several would take its far slower superstep path (set multiGpu, --multi-gpu p|s, to use them all)`,
  };
}

/**
 * `topology` without its GPUs, with the notice that says why: the machine's GPUs (a detected
 * topology) left idle for one run on a graph `small` describes (engine/partition.ts
 * SMALL_GPU_EDGES), `ask` the way to use them anyway.
 */
export function idleGpusTopology(topology: Topology, small: string, ask: string): { topology: Topology; notice: string } {
  const many = topology.gpus.length > 1;
  return {
    topology: withoutGpus(topology),
    notice: `the machine's GPU${many ? 's stay' : ' stays'} idle on ${small}: starting ${many ? 'them' : 'it'} for one run would cost more than ${many ? 'they save' : 'it saves'} (${ask})`,
  };
}
