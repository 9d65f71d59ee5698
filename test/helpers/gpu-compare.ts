/**
 * What the GPU-actor tests share: small test graphs, the programs' parameters, and the comparison
 * of a GPU (or hybrid) run's values with the CPU's.
 */
import { buildGraph } from '../../src/graph/build.js';
import { generateEdges } from '../../src/graph/generate/index.js';
import type { Graph } from '../../src/graph/types.js';
import { Engine } from '../../src/engine/coordinator.js';
import { sampleSources } from '../../src/programs/bc/index.js';
import { algorithm } from './programs.js';
import type { Topology } from '../../src/topology/schema.js';
import { rawFrom } from './raw.js';

/** One socket of one thread and `gpus` emulated GPUs (two streams each), as the GPU tests run them. */
export function emulatedGpus(gpus: number): Topology {
  return {
    name: `1S${gpus}G`,
    source: 'test',
    sockets: [{ id: 0, threads: 1 }],
    gpus: Array.from({ length: gpus }, (_, device) => ({ device, emulated: true, streams: 2 })),
    interconnect: {},
    model: {},
  };
}

export const PROGRAMS = ['bfs', 'pr', 'sssp', 'wcc', 'cdlp', 'lcc', 'bc', 'tc', 'kcore'] as const;

function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
}

/** Skewed or uniform weighted edges over ids 3i+1, a 12-edge chain and isolated vertices (as programs.test.ts); 64-edge pages (hubs split). */
export function makeGraph(kind: 'skewed' | 'uniform', directed: boolean): Graph {
  const n = 300;
  const rnd = lcg(directed ? 7 : 8);
  const pick = (): number => Math.floor((kind === 'skewed' ? rnd() ** 3 : rnd()) * n) * 3 + 1;
  const list: Array<[number, number, number]> = [];
  for (let i = 0; i < (kind === 'skewed' ? 2400 : 1200); i++) {
    const r = rnd();
    list.push([pick(), pick(), r < 0.05 ? 0 : r < 0.3 ? Math.ceil(r * 10) : r * 4]);
  }
  const chain = (i: number): number => 3 * n + 20 + 2 * i;
  list.push([list[0]![0], chain(0), 1]);
  for (let i = 0; i < 12; i++) list.push([chain(i), chain(i + 1), 0.5 + (i % 3)]);
  return buildGraph(rawFrom(list, { directed, vertices: [0, 3 * n + 2, 3 * n + 5], weighted: true }), { pageEdges: 64 });
}

/** RMAT scale 10 (8 edges per vertex, weighted), 256-edge pages. */
export function rmat(directed: boolean): Graph {
  return buildGraph({ ...generateEdges('rmat:10:ef=8:weighted'), directed }, { pageEdges: 256 });
}

export function paramsFor(g: Graph, name: string): unknown {
  const source = g.ids.byOriginal[g.ids.byOriginal.length > 1 ? 1 : 0]!;
  switch (name) {
    case 'bfs':
    case 'sssp':
      return { source };
    case 'pr':
      return { iterations: 8, damping: 0.85 };
    case 'cdlp':
      return { iterations: 6 };
    case 'bc':
      return { sources: sampleSources(g, 5, 3) };
    default:
      return {};
  }
}

/** First vertex where got and want differ (floats: by more than 1e-6 relative), or -1. */
export function firstMismatch(got: ArrayLike<number>, want: ArrayLike<number>, float: boolean): number {
  if (got.length !== want.length) return 0;
  for (let v = 0; v < want.length; v++) {
    const a = got[v]!;
    const b = want[v]!;
    if (a === b) continue;
    if (float && Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b))) continue;
    return v;
  }
  return -1;
}

/** Each program's values on the CPU sockets of a two-thread socket: what GPU runs must equal. */
export type Cpu = Map<string, Float64Array | Int32Array | Uint32Array>;

const cpuTopo: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };

export async function cpuResults(g: Graph): Promise<Cpu> {
  const e = await Engine.create(g, cpuTopo);
  const out: Cpu = new Map();
  try {
    for (const name of PROGRAMS) out.set(name, (await e.run(algorithm(name).program, paramsFor(g, name) as never)).values);
  } finally {
    await e.close();
  }
  return out;
}
