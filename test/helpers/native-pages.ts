/**
 * What the native-controller tests share: hand-built graphs paged as src/graph/types.ts says (one
 * SharedArrayBuffer per page, split pages for vertices with more edges than a page), a seeded
 * random graph (G1, with hubs that span split pages), registering pages on a controller, an
 * emulated (or, with TESSERA_NATIVE_TEST_DEVICE=cuda, real) device, a tolerant comparison, and the
 * plain JS references for BFS, SSSP and WCC.
 */
import { GpuController } from '../../actors/gpu/native.js';
import { pageView } from '../../src/graph/pages.js';

// ---- hand-built graphs ----------------------------------------------------------------------

export type W = 'f32' | 'f64' | undefined;
export interface HPage {
  index: number;
  vBegin: number;
  vEnd: number;
  split: boolean;
  edges: number;
  buffer: SharedArrayBuffer;
  offsets: Uint32Array;
  nbrs: Uint32Array;
  weights?: Float32Array | Float64Array;
}
export type Lists = Array<Array<[number, number]>>; // per vertex: [neighbour, weight], sorted by neighbour

const align8 = (x: number): number => (x + 7) & ~7;

export function makePage(index: number, vBegin: number, vEnd: number, split: boolean, parts: Array<Array<[number, number]>>, wt: W): HPage {
  const nv = vEnd - vBegin;
  const edges = parts.reduce((s, l) => s + l.length, 0);
  const nbrOff = align8(4 * (nv + 1));
  const wOff = nbrOff + align8(4 * edges);
  const wb = wt === 'f32' ? 4 : wt === 'f64' ? 8 : 0;
  const buffer = new SharedArrayBuffer(wOff + wb * edges);
  const offsets = new Uint32Array(buffer, 0, nv + 1);
  const nbrs = new Uint32Array(buffer, nbrOff, edges);
  const weights = wt === 'f32' ? new Float32Array(buffer, wOff, edges) : wt === 'f64' ? new Float64Array(buffer, wOff, edges) : undefined;
  let at = 0;
  parts.forEach((l, i) => {
    offsets[i] = at;
    for (const [u, w] of l) {
      nbrs[at] = u;
      if (weights) weights[at] = w;
      at++;
    }
  });
  offsets[nv] = at;
  return { index, vBegin, vEnd, split, edges, buffer, offsets, nbrs, weights };
}

/** pages.ts layoutPages: pages of about pageEdges edges; a vertex with more gets split pages. */
export function paginate(lists: Lists, pageEdges: number, wt: W): HPage[] {
  const pages: HPage[] = [];
  let begin = 0;
  let edges = 0;
  const close = (end: number): void => {
    if (end === begin) return;
    pages.push(makePage(pages.length, begin, end, false, lists.slice(begin, end), wt));
    begin = end;
    edges = 0;
  };
  for (let v = 0; v < lists.length; v++) {
    const d = lists[v]!.length;
    if (d > pageEdges) {
      close(v);
      for (let done = 0; done < d; done += pageEdges) pages.push(makePage(pages.length, v, v + 1, true, [lists[v]!.slice(done, done + pageEdges)], wt));
      begin = v + 1;
      continue;
    }
    if (edges + d > pageEdges || v - begin >= pageEdges) close(v);
    edges += d;
  }
  close(lists.length);
  return pages;
}

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export interface G {
  n: number;
  out: Lists;
  in: Lists;
}

/** Random directed graph with a few hubs (one with > 4096 in-edges), weights in (0, 10]. */
export function randomGraph(n: number, m: number, seed: number, hubs: Array<[number, number, 'in' | 'out']> = []): G {
  const r = rng(seed);
  const seen = new Set<number>();
  const out: Lists = Array.from({ length: n }, () => []);
  const add = (u: number, v: number): void => {
    if (u === v || seen.has(u * n + v)) return;
    seen.add(u * n + v);
    out[u]!.push([v, Math.fround(0.25 + Math.floor(r() * 40) / 4)]);
  };
  for (let i = 0; i < m; i++) add(Math.floor(r() * n), Math.floor(r() * n));
  for (const [h, deg, dir] of hubs) for (let i = 0; i < deg; i++) {
    const x = Math.floor(r() * n);
    if (dir === 'in') add(x, h);
    else add(h, x);
  }
  return finish(n, out);
}

export function finish(n: number, out: Lists): G {
  const inn: Lists = Array.from({ length: n }, () => []);
  for (let u = 0; u < n; u++) for (const [v, w] of out[u]!) inn[v]!.push([u, w]);
  for (const l of [...out, ...inn]) l.sort((a, b) => a[0] - b[0]);
  return { n, out, in: inn };
}

/** inferSplit: leave the split flag out and let the controller infer it from neighbouring pages. */
export async function register(c: GpuController, setId: number, pages: HPage[], inferSplit = false): Promise<void> {
  await Promise.all(pages.map((p) => c.registerPage(setId, p.index, pageView(p), p.vBegin, p.vEnd, p.edges, p.weights ? p.weights.BYTES_PER_ELEMENT : 0, inferSplit ? undefined : p.split)));
}

export const all = (pages: HPage[]): number[] => pages.map((p) => p.index);

export function close(t: { true: (b: boolean, m?: string) => void }, got: ArrayLike<number>, want: ArrayLike<number>, what: string, rel = 1e-9): void {
  let bad = -1;
  for (let i = 0; i < want.length; i++) {
    const a = got[i]!;
    const b = want[i]!;
    if (a === b) continue;
    if (!(Math.abs(a - b) <= rel * Math.max(1, Math.abs(b)))) {
      bad = i;
      break;
    }
  }
  t.true(bad < 0, bad < 0 ? what : `${what}: index ${bad} got ${got[bad]} want ${want[bad]}`);
}

/**
 * Emulated by default; TESSERA_NATIVE_TEST_DEVICE=cuda runs the same checks on CUDA device 0 (for
 * a machine with a GPU; CI has none).
 */
export const onCuda = process.env.TESSERA_NATIVE_TEST_DEVICE === 'cuda';
export const emu = (memoryLimit?: number, streams = 3): Promise<GpuController> => GpuController.create({ device: 0, emulated: !onCuda, memoryLimit, streams });

// ---- JS references ----------------------------------------------------------------------------

export function bfsRef(out: Lists, s: number): Int32Array {
  const d = new Int32Array(out.length).fill(-1);
  d[s] = 0;
  let q = [s];
  while (q.length) {
    const nq: number[] = [];
    for (const u of q) for (const [v] of out[u]!) if (d[v] === -1) (d[v] = d[u]! + 1), nq.push(v);
    q = nq;
  }
  return d;
}

export function ssspRef(out: Lists, s: number, weighted: boolean): Float64Array {
  // Bellman-Ford in f64 over the stored (f32-rounded) weights: exact same sums as the kernel
  const n = out.length;
  const d = new Float64Array(n).fill(Infinity);
  d[s] = 0;
  for (let changed = true; changed; ) {
    changed = false;
    for (let u = 0; u < n; u++) {
      if (d[u] === Infinity) continue;
      for (const [v, w] of out[u]!) {
        const nd = d[u]! + (weighted ? w : 1);
        if (nd < d[v]!) (d[v] = nd), (changed = true);
      }
    }
  }
  return d;
}

export function wccRef(g: G): Uint32Array {
  const p = Uint32Array.from({ length: g.n }, (_, i) => i);
  const find = (x: number): number => {
    while (p[x] !== x) x = p[x] = p[p[x]!]!;
    return x;
  };
  for (let u = 0; u < g.n; u++)
    for (const [v] of g.out[u]!) {
      const a = find(u);
      const b = find(v);
      if (a !== b) p[Math.max(a, b)] = Math.min(a, b);
    }
  return Uint32Array.from({ length: g.n }, (_, i) => find(i));
}

/** The random graph most tests share: 6000 vertices, hubs with 5000 in-edges (5) and 700 out-edges (9). */
export const G1 = randomGraph(6000, 24000, 7, [
  [5, 5000, 'in'],
  [9, 700, 'out'],
  [11, 300, 'out'],
  [13, 120, 'in'],
]);
