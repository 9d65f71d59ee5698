/**
 * The graph entry points' arguments (loadGraph, generate, fromGraphology, fromArrow, buildGraph):
 * a wrong type, an unknown key or an option that cannot apply is one TesseraError naming it, never
 * a raw TypeError or an option silently ignored; what the types and docs say is accepted.
 */
import test, { type ExecutionContext } from 'ava';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate, loadGraph, TesseraError } from '../src/index.js';
import { generateArguments } from '../src/graph/generate/index.js';
import { writeTsr } from '../src/graph/tsr.js';
import { tempDir } from './helpers/cli.js';
import { sameGraph } from './helpers/same-graph.js';

/** The call fails with one TesseraError line matching `re`. */
async function refused(t: ExecutionContext, f: () => unknown, re: RegExp): Promise<void> {
  const e = await t.throwsAsync(async () => f(), { instanceOf: TesseraError });
  t.regex(e!.message, re);
  t.false(e!.message.includes('\n'));
}

test('loadGraph: a .tsr refuses renumber, names: true and header: true instead of ignoring them', async (t) => {
  const dir = await tempDir('entry');
  const tsr = path.join(dir, 'g.tsr');
  await writeTsr((await loadGraph('rmat:4')).graph, tsr);
  await refused(t, () => loadGraph(tsr, { renumber: 'none' }), /g\.tsr: renumber does not apply here: the vertices of a \.tsr were numbered when it was converted.*Fix: /);
  await refused(t, () => loadGraph(tsr, { renumber: 'degree' }), /renumber does not apply here/);
  await refused(t, () => loadGraph(tsr, { names: true }), /g\.tsr: --names does not apply here: a \.tsr stores integer ids only/);
  await refused(t, () => loadGraph(tsr, { header: true }), /--header does not apply here/);
  t.is((await loadGraph(tsr, { names: false, header: false })).graph.numVertices, 16);
  // The other sources that have no names or header refuse them too.
  await refused(t, () => loadGraph('rmat:4', { names: true }), /rmat:4: --names does not apply here: a generated graph/);
  const mtx = path.join(dir, 'g.mtx');
  await writeFile(mtx, '%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n');
  await refused(t, () => loadGraph(mtx, { header: true }), /g\.mtx: --header does not apply here: a Matrix Market graph/);
});

test('loadGraph: option types, unknown keys and the arguments themselves are checked', async (t) => {
  await refused(t, () => loadGraph('rmat:4', { hostMemoryLimit: '8GiB' as unknown as number }), /hostMemoryLimit must be a number of bytes > 0, got a string \('8GiB'\).*Fix: give bytes, e\.g\. 8 \* 2 \*\* 30/);
  await refused(t, () => loadGraph('rmat:4', { hostMemoryLimit: NaN }), /hostMemoryLimit must be a number of bytes > 0, got NaN/);
  await refused(t, () => loadGraph('rmat:4', { hostMemoryLimit: -1 }), /hostMemoryLimit must be/);
  await refused(t, () => loadGraph('rmat:4', { undirectd: true } as never), /unknown option 'undirectd'.*did you mean 'undirected'\?/);
  await refused(t, () => loadGraph('rmat:4', { renumber: 'bogus' as never }), /renumber must be 'degree' or 'none', got a string \('bogus'\)/);
  await refused(t, () => loadGraph('rmat:4', { undirected: 'yes' as never }), /undirected must be true or false/);
  await refused(t, () => loadGraph('rmat:4', { pageEdges: 0 }), /pageEdges must be an integer from 1/);
  await refused(t, () => loadGraph(null as never), /loadGraph needs a graph: a file path or a generator spec, got null/);
  await refused(t, () => loadGraph('rmat:4', null as never), /loadGraph options must be an object, got null/);
  // What the types say is taken.
  const { graph } = await loadGraph('rmat:4', { undirected: true, renumber: 'none', pageEdges: 8, hostMemoryLimit: 8 * 2 ** 30, allowNegativeWeights: false, names: false, header: false, vertices: undefined });
  t.false(graph.directed);
  t.is(graph.pageEdges, 8);
});

test('generate: the object form takes what the string form takes, refuses the rest, and no second argument', async (t) => {
  // Through generate() (api.ts checks the object form with checkGeneratorSpec).
  for (const [o, re] of [
    [{ kind: 'uniform', scale: 4, scramble: false }, /option 'scramble' applies to rmat only/],
    [{ kind: 'uniform', scale: 4, a: 0.5 }, /option 'a' applies to rmat only/],
    [{ kind: 'rmat', scale: 4, scramble: 'no' }, /scramble must be true or false, got a string \('no'\)/],
    [{ kind: 'rmat', scale: 4, weighted: 'yes' }, /weighted must be true or false, got a string \('yes'\)/],
    [{ kind: 'rmat', scale: 4, seeed: 2 }, /unknown option 'seeed'.*did you mean 'seed'\?/],
    [{ kind: 'rmat', scale: 4, ef: 2 }, /unknown option 'ef'.*write edgeFactor/],
    [{ kind: 'rmat', scale: 40 }, /scale must be an integer from 1 to 31/],
    [{ kind: 'rmat', scale: 4, a: 0.6, b: 0.3, c: 0.2 }, /a \+ b \+ c = 1\.1 exceeds 1/],
    [{ kind: 'graph500', scale: 4 }, /kind must be 'rmat' or 'uniform'/],
  ] as const) {
    await refused(t, () => generate(o as never), re);
    await refused(t, () => generateArguments(o, undefined), re);
  }
  // The same values as the string form give the same graph.
  const a = generate({ kind: 'rmat', scale: 6, scramble: false, a: 0.5, seed: 3, edgeFactor: 4, weighted: true, pageEdges: 16 });
  const b = generate('rmat:6:scramble=false:a=0.5:seed=3:ef=4:weighted', { pageEdges: 16 });
  sameGraph(t, b, a);
  t.deepEqual(generateArguments({ kind: 'rmat', scale: 4, scramble: false, undirected: true }, undefined), {
    spec: { kind: 'rmat', scale: 4, edgeFactor: 16, seed: 1, weighted: false, scramble: false },
    build: { undirected: true, pageEdges: undefined },
  });
  // A second argument: the object form has none (refused); the string form's is checked.
  await refused(t, () => generateArguments({ kind: 'rmat', scale: 4 }, { undirected: true }), /generate with an options object takes no second argument.*put undirected and pageEdges in the object/);
  await refused(t, () => generateArguments('rmat:4', { undirectd: true }), /generate options: unknown option 'undirectd'.*did you mean 'undirected'\?/);
  await refused(t, () => generateArguments('rmat:4', { pageEdges: '64' }), /pageEdges must be an integer/);
  await refused(t, () => generateArguments(null, undefined), /generate expects a generator spec or options, got null/);
  t.deepEqual(generateArguments('rmat:4', { undirected: true }).build, { undirected: true, pageEdges: undefined });
});
