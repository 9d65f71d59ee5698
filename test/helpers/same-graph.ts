/**
 * Graphs compared bit for bit (the bounded-memory builds against the in-memory one): counts,
 * every page's bytes, degrees, id maps and drop counts.
 */
import type { ExecutionContext } from 'ava';
import type { Graph, PageSet } from '../../src/graph/types.js';
import { pageView } from '../../src/graph/pages.js';

export function samePages(t: ExecutionContext, a: PageSet, b: PageSet, what: string): void {
  t.is(a.pages.length, b.pages.length, `${what}: page count`);
  for (let i = 0; i < a.pages.length; i++) {
    const p = a.pages[i]!;
    const q = b.pages[i]!;
    const head = (x: typeof p): string => `${x.vBegin}-${x.vEnd} ${x.split} ${x.edges}`;
    t.is(head(q), head(p), `${what} page ${i}`);
    t.true(Buffer.from(pageView(p)).equals(Buffer.from(pageView(q))), `${what} page ${i}: bytes`);
  }
}

export function sameGraph(t: ExecutionContext, want: Graph, got: Graph): void {
  for (const k of ['numVertices', 'numEdges', 'directed', 'weightType', 'pageEdges', 'source'] as const) t.is(got[k], want[k], k);
  samePages(t, want.out, got.out, 'out');
  samePages(t, want.in, got.in, 'in');
  t.deepEqual(got.outDegree, want.outDegree, 'outDegree');
  t.deepEqual(got.inDegree, want.inDegree, 'inDegree');
  t.deepEqual(got.ids.toOriginal, want.ids.toOriginal, 'toOriginal');
  t.deepEqual(got.ids.byOriginal, want.ids.byOriginal, 'byOriginal');
  const build = (g: Graph): unknown => (g as { build?: unknown }).build;
  t.deepEqual(build(got), build(want), 'dropped counts');
}
