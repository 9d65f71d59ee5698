/**
 * What the model needs to know about each program besides rates: the mode its bulk of edges runs
 * in (the calibration and the partition's page orientation follow it), the bytes of vertex state a
 * GPU keeps per vertex (the native kernels' arrays, actors/gpu/native.ts header), the bytes of one
 * aggregated message on the link, and how many full passes over the edges a run makes.
 */
import type { Mode } from '../wire/frames.js';
import { ALIASES, ALGORITHMS } from '../programs/index.js';
import { TesseraError } from '../errors.js';

/** One aggregated message: u32 destination id + f64 value (src/wire/frames.ts StateMerge). */
export const MESSAGE_BYTES = 12;

/** Device memory the native controller uses by default for an emulated GPU (native/README.md). */
export const EMULATED_GPU_MEMORY = 2 * 1024 ** 3;

export interface ProgramProfile {
  /** Registry name (src/programs/index.ts). */
  algo: string;
  mode: Mode;
  /** Bytes of state per vertex on a GPU: the kernel's arrays plus frontier/next byte maps. */
  stateBytesPerVertex: number;
  messageBytes: number;
  /** Full passes over the edges for a run with default parameters. */
  passes: number;
  /**
   * What the calibration times: 'pass' (the run's time over the passes it made: programs that
   * walk every edge each iteration) or 'run' (the whole run as one pass: traversals, whose edges
   * walked per run are not a fixed fraction of |E| — BFS's direction switch skips most of them,
   * and by a fraction that changes with the graph's size).
   */
  unit: 'pass' | 'run';
  /**
   * Every pass visits every owned vertex whatever its degree (pull over all vertices: PageRank,
   * CDLP, LCC), so an element's pass costs a term per vertex beside the one per edge: calibrate.ts
   * measures it (a third graph, with a quarter of the edges per vertex) and the model charges each
   * element its vertices. It is what tells HIGH from LOW at the same alpha: on an H100 CDLP's
   * segmented sort paid ~4 ns per vertex, so the GPU gained more from giving the CPU the
   * low-degree tail (LOW) than the hubs (HIGH).
   */
  vertexTerm: boolean;
}

const PROFILES: Record<string, Omit<ProgramProfile, 'algo' | 'messageBytes'>> = {
  // contrib f64 + next f64; pull only; 10 iterations by default (Graphalytics).
  pr: { mode: 'pull', stateBytesPerVertex: 16, passes: 10, unit: 'pass', vertexTerm: true },
  // depth i32 + frontier u8 + next u8; most edges go through dense (pull) levels.
  bfs: { mode: 'pull', stateBytesPerVertex: 6, passes: 1, unit: 'run', vertexTerm: false },
  // dist f64 + frontier u8 + next u8; delta-stepping is push-heavy.
  sssp: { mode: 'push', stateBytesPerVertex: 10, passes: 1, unit: 'run', vertexTerm: false },
  // label u32 + frontier u8 + next u8.
  wcc: { mode: 'pull', stateBytesPerVertex: 6, passes: 1, unit: 'run', vertexTerm: false },
  // label u32 + next u32; pull only; 10 iterations by default.
  cdlp: { mode: 'pull', stateBytesPerVertex: 8, passes: 10, unit: 'pass', vertexTerm: true },
  // lcc f64; pull only.
  lcc: { mode: 'pull', stateBytesPerVertex: 8, passes: 1, unit: 'pass', vertexTerm: true },
  // depth i32 + sigma f64 + delta f64 + bc f64 + frontier u8 + next u8; forward and backward phases.
  bc: { mode: 'push', stateBytesPerVertex: 30, passes: 2, unit: 'pass', vertexTerm: false },
};

export function programProfile(name: string): ProgramProfile {
  const algo = ALIASES[name] ?? name;
  const p = PROFILES[algo];
  if (p === undefined || ALGORITHMS[algo] === undefined)
    throw new TesseraError(`unknown algorithm '${name}'`, { key: '--algo', fix: `use one of ${Object.keys(ALGORITHMS).join(', ')}` });
  return { algo, messageBytes: MESSAGE_BYTES, ...p };
}
