/**
 * Checks of what a driver hands the engine (Run's edgeMap, vertexMap, vertexFilter, team and its
 * returned output): a user program's mistake here is one line naming the program, the kernel and
 * the fix, before any work, instead of a TypeError deep in a worker, or a wrong result (an array
 * the workers cannot see: they read shared memory only, so a plain array's writes were lost on
 * graphs large enough to run on the threads and kept on small ones, run on this thread).
 */
import { TesseraError } from '../errors.js';
import type { OutputKind } from './define.js';
import type { StateArray } from './kernel.js';
import type { Frontier } from './program.js';

const KINDS = new Set<unknown>([Float64Array, Float32Array, Int32Array, Uint32Array, Uint8Array]);

const article = (word: string): string => `${/^[AEIOU]/i.test(word) ? 'an' : 'a'} ${word}`;

/** What `x` is, in a few words, for the messages. */
function describe(x: unknown): string {
  if (x === undefined || x === null) return String(x);
  if (Array.isArray(x)) return 'a plain Array';
  if (ArrayBuffer.isView(x)) return `${article(x.constructor.name)}${x.buffer instanceof SharedArrayBuffer ? '' : ' over an ArrayBuffer'}`;
  return typeof x === 'object' ? `a ${(x as object).constructor?.name ?? 'object'}` : `a ${typeof x}`;
}

/** `state` of a call: every entry a typed array of a state kind over a SharedArrayBuffer. */
export function checkState(program: string, kernel: string, op: string, state: unknown): asserts state is Record<string, StateArray> {
  if (state === null || typeof state !== 'object' || Array.isArray(state))
    throw new TesseraError(`program '${program}' calls ${op} with kernel '${kernel}' and state ${describe(state)}`, { fix: 'pass an object of named arrays, e.g. { rank: ctx.state.rank }' });
  for (const [name, a] of Object.entries(state)) {
    if (ArrayBuffer.isView(a) && KINDS.has(a.constructor) && a.buffer instanceof SharedArrayBuffer) continue;
    throw new TesseraError(`program '${program}' passes state '${name}' to ${op} with kernel '${kernel}' as ${describe(a)}: the kernels' threads see only typed arrays over shared memory`, {
      fix: `declare '${name}' in the definition's state (ctx.state.${name}), or take it with ctx.alloc('f64' | 'f32' | 'i32' | 'u32' | 'u8')`,
    });
  }
}

/** A frontier edgeMap takes: one the run made (ctx.all(), ctx.frontierOf, a step's next). */
export function checkFrontier(program: string, kernel: string, f: unknown): asserts f is Frontier {
  // `in`, not a read: a frontier a GPU keeps (deviceNext) throws on any read of its bitmap.
  const x = f as Partial<Frontier> | null | undefined;
  // (`size` may exceed n: actors that claim one vertex in one superstep each count it.)
  if (x !== null && typeof x === 'object' && 'bitmap' in x && typeof x.size === 'number') return;
  throw new TesseraError(`program '${program}' calls edgeMap with kernel '${kernel}' on ${describe(f)} as its frontier`, {
    fix: 'pass a frontier the run made: ctx.all(), ctx.frontierOf(ids) or a step\'s next',
  });
}

/** frontierOf's error for ids[i] = v, which is not a vertex (RunPools.frontierOf checks in its loops). */
export function notVertex(v: unknown, i: number, n: number): TesseraError {
  if (i < 0) return new TesseraError(`frontierOf got ${describe(v)}`, { fix: 'pass an array of internal vertex ids' });
  return new TesseraError(`frontierOf got ${String(v)} at index ${i}, which is not a vertex (internal ids are 0..${n - 1})`, {
    fix: 'give internal ids (graph.ids.byOriginal maps original ids to them)',
  });
}

/** The engine's own programs whose result nobody reads (warm-up.ts): they return an empty array. */
export const UNREAD_OUTPUT = new WeakSet<object>();

/** The array a driver returns for its output kind: the type it declares, one value per vertex. */
export function checkOutput(program: string, kind: OutputKind, values: unknown, n: number): void {
  const want = kind === 'float' || kind === 'distance' ? [Float64Array] : kind === 'depth' ? [Int32Array] : [Int32Array, Uint32Array];
  const ok = ArrayBuffer.isView(values) && want.some((c) => values instanceof c) && (values as StateArray).length === n;
  if (ok) return;
  const what = want.map((c) => c.name).join(' or ');
  const got = ArrayBuffer.isView(values) && want.some((c) => values instanceof c) ? `${(values as StateArray).length} values` : describe(values);
  throw new TesseraError(`program '${program}' returned ${got}, but its output '${kind}' is ${article(what)} of one value per vertex (${n})`, {
    fix: `return the state array that holds the result (e.g. ctx.state.x), or declare the output kind that matches it`,
  });
}
