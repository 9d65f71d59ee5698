/**
 * `tessera demo` (what `npm start` runs): the embedded default job. It needs no input files:
 * generates a weighted Graph500 RMAT graph, detects this machine's topology, runs every program
 * on one set of actors, checks each result against the program's serial reference, and says in
 * plain words what each computed (a few top results), how long it took and how long the simple
 * reference took. `--verbose` adds the engine's run reports. Exits non-zero when any result
 * disagrees with its reference.
 */
import { EventEmitter } from 'eventemitter3';
import { Engine, type EngineEvents } from '../engine/coordinator.js';
import { superstepProgress } from './progress.js';
import type { AnyProgram } from '../engine/define.js';
import { summarize } from '../engine/report.js';
import { TesseraError } from '../errors.js';
import { loadGraph } from '../graph/load.js';
import type { Graph } from '../graph/types.js';
import { PROGRAMS } from '../programs/index.js';
import { prepareRun } from '../api.js';
import { loadTopology } from '../topology/load.js';
import { grouped, short } from '../format.js';

type Values = ArrayLike<number>;

/** Float results are sums in a different order than the reference: compare relatively. */
const FLOAT_TOLERANCE = 1e-6;

const ms = (x: number): string => (x < 1000 ? `${x.toFixed(0)} ms` : `${(x / 1000).toFixed(2)} s`);

/** Number of vertices whose values differ (integers exactly, floats within FLOAT_TOLERANCE). */
function disagreements(got: Values, want: Values): number {
  if (got.length !== want.length) return Math.max(got.length, want.length);
  let bad = 0;
  for (let v = 0; v < got.length; v++) {
    const a = got[v]!;
    const b = want[v]!;
    if (a === b) continue;
    if (!(Math.abs(a - b) <= FLOAT_TOLERANCE * Math.max(Math.abs(a), Math.abs(b)))) bad++;
  }
  return bad;
}

/** What a result says, in a sentence, by its kind of output. */
function describe(g: Graph, p: AnyProgram, values: Values, params: Record<string, unknown>): string {
  const ids = g.ids.toOriginal;
  const n = values.length;
  const from = typeof params.source === 'number' ? ` from vertex ${ids[params.source]}` : '';
  if (p.output === 'depth' || p.output === 'distance') {
    let reached = 0;
    let far = 0;
    for (let v = 0; v < n; v++) {
      const x = values[v]!;
      if (x < 0 || x === Infinity) continue;
      reached++;
      far = Math.max(far, x);
    }
    return `${grouped(reached)} of ${grouped(n)} vertices reachable${from}; the farthest is ${short(far)} ${p.output === 'depth' ? 'hops' : '(sum of weights)'} away`;
  }
  if (p.output === 'label') {
    const size = new Map<number, number>();
    for (let v = 0; v < n; v++) size.set(values[v]!, (size.get(values[v]!) ?? 0) + 1);
    const largest = Math.max(...size.values());
    return `${grouped(size.size)} groups; the largest has ${grouped(largest)} vertices (${short((100 * largest) / n)}%)`;
  }
  const top = Array.from({ length: n }, (_, v) => v)
    .sort((a, b) => values[b]! - values[a]!)
    .slice(0, 3)
    .map((v) => `${ids[v]} (${short(values[v]!)})`);
  let sum = 0;
  for (let v = 0; v < n; v++) sum += values[v]!;
  return `highest: ${top.join(', ')}; average ${short(sum / n)}`;
}

export async function runDemo(scale: number, topologySpec: string, verbose = false): Promise<void> {
  const spec = `rmat:${scale}:weighted`;
  const out = (s: string): boolean => process.stdout.write(s + '\n');
  out('tessera demo: a generated graph, every built-in algorithm on it, each result checked against a simple serial reference.');
  const { graph, loadMs } = await loadGraph(spec);
  out(`graph: ${grouped(graph.numVertices)} vertices and ${grouped(graph.numEdges)} directed edges with weights in (0, 1], a skewed "social network" shape (Graph500 RMAT scale ${scale}, ${spec}); made in ${ms(loadMs)}`);
  const topology = await loadTopology(topologySpec);
  const threads = topology.sockets.reduce((a, s) => a + (typeof s.threads === 'number' ? s.threads : 0), 0);
  out(`machine: ${topology.sockets.length} CPU socket(s), ${threads} threads${topology.gpus.length > 0 ? `, ${topology.gpus.length} GPU(s)${topology.gpus.some((x) => x.emulated) ? ' (emulated)' : ''}` : ''}`);
  const events = new EventEmitter<EngineEvents>();
  const stopProgress = superstepProgress(events, 1000);
  const engine = await Engine.create(graph, topology, { events });
  const failed: string[] = [];
  // Every built-in with a serial reference, on its demo parameters (traversals from the top hub).
  const list = PROGRAMS.filter((p) => p.reference !== undefined);
  try {
    for (const program of list) {
      const { params } = prepareRun(graph, program, program.demoParams?.(graph) ?? {});
      const { values, report } = await engine.run(program, params);
      report.loadMs = loadMs;
      const t0 = performance.now();
      const bad = disagreements(values, (program.reference as (g: typeof graph, p: unknown) => Values)(graph, params));
      const checkMs = performance.now() - t0;
      const sampled = typeof (params as { sources?: unknown }).sources === 'number' ? ` (sampled: ${(params as { sources: number }).sources} source vertices)` : '';
      out('');
      out(`${program.name}: ${program.summary}${sampled}`);
      out(`  ${describe(graph, program, values, params as Record<string, unknown>)}`);
      out(`  ${ms(report.totalMs)}; the serial reference took ${ms(checkMs)}; ${bad === 0 ? 'same result' : `FAILED: ${grouped(bad)} vertices differ`}`);
      if (verbose) out(summarize(report).replace(/^/gm, '    '));
      if (bad !== 0) failed.push(program.name);
    }
  } finally {
    stopProgress();
    await engine.close();
  }
  out('');
  if (failed.length > 0) {
    throw new TesseraError(`demo: ${failed.join(', ')} disagreed with the serial reference`, {
      fix: 'this is a bug in tessera; rerun with TESSERA_DEBUG=1 and report it with the output above',
    });
  }
  out(`all ${list.length} results match their serial references.${verbose ? '' : ' Engine details: tessera demo --verbose.'} Next: tessera run --algo pr --graph FILE (see README).`);
}
