/**
 * The algorithm table the CLI and library expose: name -> program + how its parameters are
 * resolved from options (and Graphalytics .properties defaults).
 */
import { TesseraError } from '../errors.js';
import type { Program } from '../engine/program.js';
import { internalId } from '../engine/output.js';
import type { Graph } from '../graph/types.js';
import { betweenness, sampleSources } from './betweenness.js';
import { bfs } from './bfs.js';
import { cdlp } from './cdlp.js';
import { lcc } from './lcc.js';
import { pagerank } from './pagerank.js';
import { sssp } from './sssp.js';
import { wcc } from './wcc.js';

/** Options common to every algorithm (original ids; defaults from Graphalytics properties). */
export interface AlgoOptions {
  /** bfs, sssp: source vertex (original id). */
  source?: number;
  /** pr: iterations (fixed count); cdlp: maximum iterations. */
  iterations?: number;
  /** pr: damping factor. */
  damping?: number;
  /** sssp: update window (> 0, Infinity = no window); default: the mean edge weight. */
  window?: number;
  /** bc: number of sampled sources K (default: every vertex, exact). */
  sources?: number;
  /** bc: explicit source vertices (original ids); excludes `sources`. */
  sourceList?: ArrayLike<number>;
  /** bc: seed of the source sample (default 1). */
  seed?: number;
}

/** Graphalytics parameters a .properties file may carry. */
export interface AlgoDefaults {
  bfsSource?: number;
  ssspSource?: number;
  prIterations?: number;
  prDamping?: number;
  cdlpIterations?: number;
}

export interface AlgorithmEntry {
  program: Program<never>;
  /** Turns options into the program's parameters (internal ids), or throws a TesseraError. */
  params(graph: Graph, o: AlgoOptions, d: AlgoDefaults): unknown;
}

function needSource(graph: Graph, o: AlgoOptions, fallback: number | undefined, algo: string): number {
  const s = o.source ?? fallback;
  if (s === undefined) throw new TesseraError(`${algo} needs a source vertex`, { key: '--source', fix: `add --source ID (an original vertex id)` });
  return internalId(graph, s);
}

export const ALGORITHMS: Record<string, AlgorithmEntry> = {
  bfs: {
    program: bfs as Program<never>,
    params: (g, o, d) => ({ source: needSource(g, o, d.bfsSource, 'bfs') }),
  },
  pr: {
    program: pagerank as Program<never>,
    params: (_g, o, d) => {
      const iterations = o.iterations ?? d.prIterations ?? 10;
      const damping = o.damping ?? d.prDamping ?? 0.85;
      if (!Number.isInteger(iterations) || iterations < 0) throw new TesseraError(`--iterations ${iterations} is not a non-negative integer`, { key: '--iterations', fix: 'use e.g. --iterations 10' });
      if (!(damping >= 0 && damping <= 1)) throw new TesseraError(`--damping ${damping} is outside [0, 1]`, { key: '--damping', fix: 'use e.g. --damping 0.85' });
      return { iterations, damping };
    },
  },

  sssp: {
    program: sssp as Program<never>,
    params: (g, o, d) => {
      const source = needSource(g, o, d.ssspSource, 'sssp');
      const w = o.window;
      if (w !== undefined && !(w > 0)) throw new TesseraError(`--window ${w} is not a positive number`, { key: '--window', fix: 'use a window > 0 (e.g. the mean edge weight), or Infinity for no window' });
      return { source, window: w };
    },
  },
  wcc: {
    program: wcc as Program<never>,
    params: () => ({}),
  },
  cdlp: {
    program: cdlp as Program<never>,
    params: (_g, o, d) => {
      const iterations = o.iterations ?? d.cdlpIterations ?? 10;
      if (!Number.isInteger(iterations) || iterations < 0) throw new TesseraError(`--iterations ${iterations} is not a non-negative integer`, { key: '--iterations', fix: 'use e.g. --iterations 10' });
      return { iterations };
    },
  },
  lcc: {
    program: lcc as Program<never>,
    params: () => ({}),
  },
  bc: {
    program: betweenness as Program<never>,
    params: (g, o) => {
      if (o.sources !== undefined && o.sourceList !== undefined) {
        throw new TesseraError('--sources and --source-list cannot be used together', { key: '--sources', fix: 'give either a sample size (--sources K) or a list of sources (--source-list FILE)' });
      }
      if (o.sourceList !== undefined) {
        const list = o.sourceList;
        if (list.length === 0) throw new TesseraError('the source list is empty', { key: '--source-list', fix: 'list at least one vertex id' });
        const seen = new Set<number>();
        const ids: number[] = [];
        for (let i = 0; i < list.length; i++) {
          const v = internalId(g, list[i]!, 'bc source');
          if (!seen.has(v)) (seen.add(v), ids.push(v));
        }
        return { sources: Uint32Array.from(ids) };
      }
      if (o.sources !== undefined) {
        const k = o.sources;
        if (!Number.isInteger(k) || k < 1) throw new TesseraError(`--sources ${k} is not a positive integer`, { key: '--sources', fix: 'use e.g. --sources 64' });
        const seed = o.seed ?? 1;
        if (!Number.isSafeInteger(seed) || seed < 0) throw new TesseraError(`--seed ${seed} is not a non-negative integer`, { key: '--seed', fix: 'use e.g. --seed 1' });
        return { sources: sampleSources(g, k, seed) };
      }
      return { sources: undefined };
    },
  },
};

export const ALIASES: Record<string, string> = { pagerank: 'pr', betweenness: 'bc' };

export function algorithm(name: string): AlgorithmEntry {
  const key = ALIASES[name] ?? name;
  const e = ALGORITHMS[key];
  if (e === undefined) {
    throw new TesseraError(`unknown algorithm '${name}'`, { key: '--algo', fix: `use one of ${Object.keys(ALGORITHMS).join(', ')}` });
  }
  return e;
}
