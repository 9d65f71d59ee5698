/**
 * RunResult's outputs agree with one another and fail cleanly: labels on a graph read with names
 * are names in the text file, the Arrow table and file and format(); a vertex that is not in the
 * graph, or of the other kind, is one TesseraError with a fix; JSON.stringify gives a small
 * summary, not the graph; and the README's loadGraph / fromArrow usage type-checks (typeChecks).
 */
import test from 'ava';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tableFromArrays, tableFromIPC, type Table } from 'apache-arrow';
import { DirectedGraph } from 'graphology';
import { fromArrow, fromGraphology, generate, isKeyedGraph, loadGraph, run, TesseraError, type Graph, type MaybeKeyedGraph } from '../src/index.js';
import { tempDir } from './helpers/cli.js';
import { ONE } from './helpers/topologies.js';

async function file(name: string, text: string): Promise<string> {
  const f = path.join(await tempDir('result-outputs'), name);
  await writeFile(f, text);
  return f;
}

/** The text file's lines as [name, value] (names here hold no spaces). */
const lines = (text: string): string[][] => text.trim().split('\n').map((l) => l.split(' '));

test('labels on a graph of names are names in every output (wcc, scc, cdlp, louvain)', async (t) => {
  const { graph } = await loadGraph(await file('lab.txt', 'a b\nc d\nd c\n'));
  const dir = await tempDir('result-outputs');
  for (const program of ['wcc', 'scc', 'cdlp', 'louvain'] as const) {
    const r = await run(graph, program, { topology: ONE });
    await r.write(path.join(dir, 'x.txt'));
    await r.write(path.join(dir, 'x.arrow'));
    const text = lines(await readFile(path.join(dir, 'x.txt'), 'utf8'));
    t.true(text.every(([, label]) => ['a', 'b', 'c', 'd'].includes(label!)), `${program}: text labels are names`);
    const fromFile = tableFromIPC(await readFile(path.join(dir, 'x.arrow')));
    for (const table of [await r.toArrow(), fromFile]) {
      t.deepEqual(table.toArray().map((row) => [row.name, row.value]), text, `${program}: Arrow = text`);
      t.is(String(table.getChild('value')!.type), String(table.getChild('name')!.type), `${program}: value typed as name`);
    }
    for (const [name, label] of text) t.is(r.format(name!), label, `${program}: format('${name}')`);
    // get() keeps the original id, whose name is graph.keys[label].
    if (isKeyedGraph(graph)) t.is(graph.keys[r.get('b')], text[1]![1]);
  }
  t.is(lines(await readFile(path.join(dir, 'x.txt'), 'utf8'))[1]![1], 'a', 'louvain puts b with a');
});

test('a label name with a space: format quotes it as the text file does, the Arrow table holds it plain', async (t) => {
  const { graph } = await loadGraph(await file('ny.csv', '"New York",alice\nalice,bob\n'), { header: false });
  const r = await run(graph, 'wcc', { topology: ONE });
  const out = path.join(await tempDir('result-outputs'), 'ny.txt');
  await r.write(out);
  t.is(await readFile(out, 'utf8'), '"New York" "New York"\nalice "New York"\nbob "New York"\n');
  t.is(r.format('bob'), '"New York"');
  t.deepEqual([...(await r.toArrow()).getChild('value')!], ['New York', 'New York', 'New York']);
});

test('labels elsewhere: ids on graphs of ids; keys in the Arrow table of a graphology graph (its rows are named by key)', async (t) => {
  const plain = await run(generate('uniform:4'), 'wcc', { topology: ONE });
  const table = await plain.toArrow();
  t.deepEqual(table.schema.fields.map((f) => f.name), ['id', 'value']);
  t.is(plain.format(3), String(plain.get(3)));
  const g = new DirectedGraph();
  g.mergeEdge('x', 'y');
  g.mergeEdge('z', 'y');
  g.addNode('w');
  const keyed = fromGraphology(g);
  const r = await run(keyed, 'wcc', { topology: ONE });
  t.deepEqual((await r.toArrow()).toArray().map((row) => [row.name, row.value]), [['x', 'x'], ['y', 'x'], ['z', 'x'], ['w', 'w']]);
  // Its text output writes original ids (positions in graph.keys), labels too; format agrees.
  t.is(r.format('z'), '0');
});

test('a vertex not in the graph, or of the other kind, is a TesseraError with a fix', async (t) => {
  const plain = await run(generate('uniform:4'), 'bfs', { source: 0, topology: ONE });
  const asString = t.throws(() => plain.get('0' as never), { instanceOf: TesseraError });
  t.regex(asString!.message, /vertex '0' is not in the graph: .* are original ids \(numbers\)\. Fix: pass 0$/);
  for (const call of [() => plain.get(100), () => plain.parent(100), () => plain.pathTo(100), () => plain.format(100)]) {
    const e = t.throws(call, { instanceOf: TesseraError });
    t.regex(e!.message, /vertex 100 is not in the graph\. Fix: .*ids run from 0 to 15/);
  }
  t.regex(t.throws(() => plain.get('alice' as never), { instanceOf: TesseraError })!.message, /Fix: pass an original id as a number/);

  const { graph } = await loadGraph(await file('names.txt', 'a b\nb c\n'));
  const named = await run(graph, 'bfs', { source: 'a', topology: ONE });
  const asNumber = t.throws(() => named.get(0), { instanceOf: TesseraError });
  t.regex(asNumber!.message, /vertex 0 is not in the graph: the vertices of .* are names \(strings\)\. Fix: pass a name, e\.g\. 'a'$/);
  for (const call of [() => named.get('zz'), () => named.parent('zz'), () => named.pathTo('zz')]) {
    t.regex(t.throws(call, { instanceOf: TesseraError })!.message, /vertex 'zz' is not in the graph\. Fix: name a vertex of/);
  }
  // A name that reads as a number is found from the number too (graphology's rule for keys).
  const { graph: digits } = await loadGraph(await file('digits.txt', 'x 7\n'), { names: true });
  t.is((await run(digits, 'bfs', { source: 'x', topology: ONE })).get(7), 1);
});

test('JSON.stringify(result) is a small summary, not the graph or the values', async (t) => {
  const graph = generate('rmat:12');
  const r = await run(graph, 'pr', { topology: ONE });
  const json = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
  t.deepEqual(Object.keys(json).sort(), ['edgesProcessed', 'graph', 'kind', 'notes', 'program', 'startMs', 'supersteps', 'teps', 'topology', 'totalMs', 'valueCount']);
  t.is(json.program, 'pr');
  t.is(json.kind, 'float');
  t.is(json.valueCount, graph.numVertices);
  t.deepEqual(json.graph, r.report.graph);
  t.is(json.topology, r.report.topology.name);
  t.true(JSON.stringify(r).length < 1000);
});

/**
 * Compile-time checks (never called): tsc fails on an unused @ts-expect-error, so each marked
 * line must stay a type error, and each other line must compile.
 */
export async function typeChecks(plain: Graph, either: MaybeKeyedGraph): Promise<void> {
  // The README: a graph read by name takes names.
  const { graph } = await loadGraph('people.csv');
  const bfs = await run(graph, 'bfs', { source: 'alice' });
  bfs.get('bob');
  bfs.get(3);
  await run(graph, 'bfs', { source: 0 });
  await run(graph, 'pr', { iterations: 20 });
  await run(fromArrow(tableFromArrays({ source: ['a'], target: ['b'] }) as Table), 'bfs', { source: 'a' });
  // narrowed, the two kinds take their own vertices
  if (isKeyedGraph(either)) await run(either, 'bfs', { source: 'a' });
  // @ts-expect-error -- a plain graph narrowed from either takes original ids
  else await run(either, 'bfs', { source: 'a' });
  // @ts-expect-error -- a plain graph's vertices are still original ids
  await run(plain, 'bfs', { source: 'alice' });
  // @ts-expect-error -- a generated graph too
  (await run(generate('rmat:4'), 'bfs', { source: 0 })).get('0');
}
