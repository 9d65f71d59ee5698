/**
 * `tessera demo` (what `npm start` runs): the embedded default job. It needs no input files:
 * generates a weighted Graph500 RMAT graph, detects this machine's topology, runs every program
 * on one set of actors, checks each result against the program's serial reference, and prints
 * the run reports. Exits non-zero when any result disagrees with its reference.
 */
import { Engine } from '../engine/coordinator.js';
import { summarize } from '../engine/report.js';
import { TesseraError } from '../errors.js';
import { loadGraph } from '../graph/load.js';
import { PROGRAMS } from '../programs/index.js';
import { prepareRun } from '../api.js';
import { loadTopology } from '../topology/load.js';

type Values = ArrayLike<number>;

/** Float results are sums in a different order than the reference: compare relatively. */
const FLOAT_TOLERANCE = 1e-6;

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

export async function runDemo(scale: number, topologySpec: string): Promise<void> {
  const spec = `rmat:${scale}:weighted`;
  const out = (s: string): boolean => process.stdout.write(s + '\n');
  out(`tessera demo: generating ${spec} (Graph500 RMAT, 16 edges per vertex, weights in (0, 1])`);
  const { graph, loadMs } = await loadGraph(spec);
  out(`  ${graph.numVertices} vertices, ${graph.numEdges} edges, ${graph.out.pages.length} out-pages, built in ${(loadMs / 1000).toFixed(2)} s`);
  const topology = await loadTopology(topologySpec);
  const engine = await Engine.create(graph, topology, {});
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
      out('');
      out(summarize(report));
      out(bad === 0 ? `check: matches the serial reference (${checkMs.toFixed(0)} ms)` : `check: FAILED, ${bad} vertices differ from the serial reference`);
      if (bad !== 0) failed.push(program.name);
    }
  } finally {
    await engine.close();
  }
  out('');
  if (failed.length > 0) {
    throw new TesseraError(`demo: ${failed.join(', ')} disagreed with the serial reference`, {
      fix: 'this is a bug in tessera; rerun with TESSERA_DEBUG=1 and report it with the output above',
    });
  }
  out(`all ${list.length} programs match their serial references. Next: tessera run --algo pr --graph FILE (see README).`);
}
