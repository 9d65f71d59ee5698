/**
 * The library surface: plain functions with options objects (graphology style).
 *
 *   const { graph } = await loadGraph('soc-Epinions1.txt.gz');
 *   const r = await run(graph, 'pr', { iterations: 20 });
 *   r.get(42)            // value of original vertex 42
 *   r.report.teps
 */
import { Engine, type EngineOptions } from './engine/coordinator.js';
import type { OutputKind } from './engine/program.js';
import { formatValue, writeResult } from './engine/output.js';
import type { RunReport } from './engine/report.js';
import type { Graph } from './graph/types.js';
import { algorithm, type AlgoDefaults, type AlgoOptions } from './programs/index.js';
import { loadTopology } from './topology/load.js';
import type { Topology } from './topology/schema.js';

export interface RunOptions extends AlgoOptions, EngineOptions {
  /** A topology, a YAML path, or 'auto' (default: detect this machine). */
  topology?: Topology | string;
  /** Defaults from a Graphalytics .properties file (loadGraph returns them). */
  defaults?: AlgoDefaults;
}

export class RunResult {
  constructor(
    readonly graph: Graph,
    /** One value per internal vertex id. */
    readonly values: Float64Array | Int32Array | Uint32Array,
    readonly kind: OutputKind,
    readonly report: RunReport,
  ) {}

  /** Value of an original vertex id (BFS: -1 when unreachable; SSSP: Infinity). */
  get(originalId: number): number {
    const { toOriginal, byOriginal } = this.graph.ids;
    let lo = 0;
    let hi = byOriginal.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (toOriginal[byOriginal[mid]!]! < originalId) lo = mid + 1;
      else hi = mid;
    }
    const v = byOriginal[lo];
    if (v === undefined || toOriginal[v] !== originalId) throw new RangeError(`vertex ${originalId} is not in the graph`);
    return this.values[v]!;
  }

  /** [originalId, value] pairs in ascending original id. */
  *entries(): IterableIterator<[number, number]> {
    const { toOriginal, byOriginal } = this.graph.ids;
    for (let i = 0; i < byOriginal.length; i++) yield [toOriginal[byOriginal[i]!]!, this.values[byOriginal[i]!]!];
  }

  /** The value as the output file writes it. */
  format(originalId: number): string {
    return formatValue(this.kind, this.get(originalId));
  }

  /** Writes `id value` lines (ascending original id) atomically. */
  write(file: string): Promise<void> {
    return writeResult(file, this.graph, this.values, this.kind);
  }
}

/** Runs one algorithm on a graph with a fresh set of actors, and releases them afterwards. */
export async function run(graph: Graph, algo: string, opts: RunOptions = {}): Promise<RunResult> {
  const entry = algorithm(algo);
  const params = entry.params(graph, opts, opts.defaults ?? {});
  const topology = typeof opts.topology === 'object' ? opts.topology : await loadTopology(opts.topology);
  const engine = await Engine.create(graph, topology, opts);
  try {
    const { values, report } = await engine.run(entry.program, params as never);
    return new RunResult(graph, values, entry.program.output, report);
  } finally {
    await engine.close();
  }
}
