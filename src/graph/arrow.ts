/**
 * Apache Arrow in and out (the columnar format cuGraph's and pandas' users already hold):
 * an edge table (IPC file or stream, or an in-memory Table) becomes a graph, and a result becomes
 * a table (`RunResult.toArrow`, `--out FILE.arrow`).
 *
 * Edge tables: a source and a target column (named source/src/from/u and target/dst/to/v, or
 * given, else the first two columns) and an optional numeric weight column (`weight`, or given).
 * Integer columns (any width; whole floats too) are original ids; string columns are names, read
 * as a names edge list is (readers/named.ts): a graph read and written by name. Nulls, negative or
 * fractional ids and non-finite weights are one error naming the file, column and row.
 */
import { readFile } from 'node:fs/promises';
// apache-arrow loads on first use (120 ms of import): only when a table is read or made.
import type { Table, Vector } from 'apache-arrow';
const arrow = (): Promise<typeof import('apache-arrow')> => import('apache-arrow');
import { checkGraphFits } from './memory.js';
import { TesseraError } from '../errors.js';
import { F64List, U32List } from './chunked.js';
import { MAX_ORIGINAL_ID, type Graph, type RawEdges } from './types.js';
import { buildGraph } from './build.js';
import { withKeys } from './keys.js';
import type { MaybeKeyedGraph } from '../graphology.js';
import { checkBoolean, checkInteger, checkOptions, checkString, describe } from './options.js';

export interface ArrowEdgeOptions {
  source?: string;
  target?: string;
  /** The weight column; null: none even when the table has a `weight` column. */
  weight?: string | null;
  directed?: boolean;
  allowNegativeWeights?: boolean;
}

export interface ArrowEdges {
  raw: RawEdges;
  /** Names by original id, when the id columns hold strings. */
  keys?: string[];
}

const SOURCES = ['source', 'src', 'from', 'u'];
const TARGETS = ['target', 'dst', 'to', 'v'];

/** Whether a path names an Arrow IPC file. */
export const isArrowFile = (file: string): boolean => /\.(arrow|arrows|feather|ipc)$/i.test(file);

/** Reads an Arrow IPC file (or stream) of edges. */
export async function readArrowEdges(file: string, opts: ArrowEdgeOptions = {}): Promise<ArrowEdges> {
  let table: Table;
  let size = 0;
  try {
    const bytes = await readFile(file);
    size = bytes.byteLength;
    // An IPC file starts with ARROW1, a stream with a 0xFFFFFFFF continuation (older: a length).
    const magic = bytes.subarray(0, 6).toString('latin1') === 'ARROW1' || bytes.readUInt32LE(0) === 0xffffffff;
    if (!magic) throw new Error('no Arrow IPC header');
    table = (await arrow()).tableFromIPC(bytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new TesseraError(code === 'ENOENT' ? 'graph file not found' : `not an Arrow IPC file (${(e as Error).message.split('\n')[0]})`, {
      file,
      fix: code === 'ENOENT' ? 'check the path' : 'write the edges with pyarrow.feather.write_feather / ipc, or give another format',
    });
  }
  // The table stays in memory while its edges are listed and the graph built.
  checkGraphFits(0, table.numRows, { file, what: 'this Arrow table', says: `lists ${table.numRows} edges`, held: size });
  return arrowEdges(table, file, opts);
}

/** An in-memory table of edges. */
export function arrowEdges(table: Table, source: string, opts: ArrowEdgeOptions = {}): ArrowEdges {
  const names = table.schema.fields.map((f) => f.name);
  const pick = (given: string | undefined, usual: string[], at: number, what: string): string => {
    if (given !== undefined) {
      if (!names.includes(given)) throw new TesseraError(`the ${what} column '${given}' is not in the table (columns: ${names.join(', ')})`, { file: source, fix: `name one of ${names.join(', ')}` });
      return given;
    }
    const found = usual.find((u) => names.includes(u)) ?? names[at];
    if (found === undefined) throw new TesseraError(`an edge table needs a source and a target column, this one has ${names.length}`, { file: source, fix: 'give a table with two id columns (and optionally a weight column)' });
    return found;
  };
  const s = pick(opts.source, SOURCES, 0, 'source');
  const t = pick(opts.target, TARGETS, 1, 'target');
  const w = opts.weight === null ? undefined : opts.weight !== undefined ? pick(opts.weight, [], -1, 'weight') : names.includes('weight') ? 'weight' : undefined;
  const sv = table.getChild(s)!;
  const tv = table.getChild(t)!;
  const wv = w === undefined ? undefined : table.getChild(w)!;
  const stringIds = isString(sv) || isString(tv);
  if (stringIds && !(isString(sv) && isString(tv))) throw new TesseraError(`the id columns '${s}' and '${t}' mix strings and numbers`, { file: source, fix: 'use names in both columns or integers in both' });
  const fail = (col: string, row: number, what: string, fix: string): never => {
    throw new TesseraError(`column '${col}', row ${row}: ${what}`, { file: source, fix });
  };
  const src = new U32List();
  const dst = new U32List();
  const weights = wv === undefined ? undefined : new F64List();
  const keys: string[] = [];
  const index = new Map<string, number>();
  const id = (vec: Vector, col: string, row: number): number => {
    const x: unknown = vec.get(row);
    if (x === null || x === undefined) return fail(col, row, 'the id is null', 'give every edge both ends');
    if (stringIds) {
      const k = String(x);
      let v = index.get(k);
      if (v === undefined) index.set(k, (v = keys.push(k) - 1));
      return v;
    }
    const n = typeof x === 'bigint' ? Number(x) : Number(x);
    if (!Number.isInteger(n) || n < 0 || n > MAX_ORIGINAL_ID) return fail(col, row, `id ${String(x)} is not an integer 0 to ${MAX_ORIGINAL_ID}`, 'use non-negative integer ids, or strings for names');
    return n;
  };
  for (let r = 0; r < table.numRows; r++) {
    src.push(id(sv, s, r));
    dst.push(id(tv, t, r));
    if (weights !== undefined) {
      const x: unknown = wv!.get(r);
      const n = typeof x === 'bigint' ? Number(x) : Number(x);
      if (x === null || !Number.isFinite(n)) fail(w!, r, `weight ${String(x)} is not a finite number`, 'give every edge a numeric weight, or weight: null');
      if (n < 0 && opts.allowNegativeWeights !== true) fail(w!, r, `negative weight ${n}`, 'use weights >= 0, or allow negative weights');
      weights.push(n);
    }
  }
  let vertices: U32List | undefined;
  if (stringIds) {
    vertices = new U32List();
    for (let i = 0; i < keys.length; i++) vertices.push(i);
  }
  const raw: RawEdges = { src, dst, weights, vertices, directed: opts.directed ?? true, weightType: weights ? 'float64' : undefined, source };
  return { raw, ...(stringIds ? { keys } : {}) };
}

function isString(v: Vector): boolean {
  const t = String(v.type);
  return t === 'Utf8' || t === 'LargeUtf8' || t.startsWith('Dictionary<') && t.includes('Utf8');
}

/**
 * A result as a table: `id` (original ids, Uint32) or, on a graph with names, `name` (strings),
 * and `value` (Float64, or Int32 for depths and counts), one row per vertex in ascending
 * original id; with `parents`, a `parent` column the same way (-1 / null when unreachable).
 * With `labels` (values that are original ids: wcc, scc, cdlp, louvain) on a graph with names,
 * `value` holds names too, typed as `name` is: the table has no ids to look a label up by.
 */
export async function resultTable(ids: Uint32Array, names: readonly string[] | undefined, values: ArrayLike<number>, byOriginal: Uint32Array, float: boolean, parents?: Int32Array, labels = false): Promise<Table> {
  const n = byOriginal.length;
  const orig = new Uint32Array(n);
  for (let i = 0; i < n; i++) orig[i] = ids[byOriginal[i]!]!;
  const cols: Record<string, unknown> = names === undefined ? { id: orig } : { name: Array.from(orig, (o) => names[o]!) };
  if (labels && names !== undefined) {
    // A label that is no vertex (a defined program's) stays its number, as the text output writes it.
    cols.value = Array.from(byOriginal, (v) => names[values[v]!] ?? String(values[v]));
  } else {
    const val = float ? new Float64Array(n) : new Int32Array(n);
    for (let i = 0; i < n; i++) val[i] = values[byOriginal[i]!]!;
    cols.value = val;
  }
  if (parents !== undefined) {
    if (names === undefined) cols.parent = Float64Array.from(byOriginal, (v) => (parents[v]! < 0 ? -1 : ids[parents[v]!]!));
    else cols.parent = Array.from(byOriginal, (v) => (parents[v]! < 0 ? null : names[ids[parents[v]!]!]!));
  }
  const { tableFromArrays } = await arrow();
  return tableFromArrays(cols as Parameters<typeof tableFromArrays>[0]) as Table;
}

/**
 * A graph from an in-memory Arrow table of edges (columns as for files): original ids from
 * integer columns, or names from string columns (then read and written by name, as a graph from
 * fromGraphology).
 */
export function fromArrow(table: Table, opts: ArrowEdgeOptions & { pageEdges?: number } = {}): MaybeKeyedGraph {
  checkTable(table);
  const what = 'fromArrow options';
  const o = checkOptions(opts, what, ['source', 'target', 'weight', 'directed', 'allowNegativeWeights', 'pageEdges']);
  checkString(o, 'source', what, 'name the source column, or leave it out');
  checkString(o, 'target', what, 'name the target column, or leave it out');
  if (o.weight !== null) checkString(o, 'weight', what, 'name the weight column, null for none, or leave it out');
  checkBoolean(o, 'directed', what);
  checkBoolean(o, 'allowNegativeWeights', what);
  checkInteger(o, 'pageEdges', what, 1, 0x7fffffff, 'use e.g. 1048576, or leave it out');
  const r = arrowEdges(table, 'Arrow table', opts);
  const built = buildGraph(r.raw, { pageEdges: opts.pageEdges });
  return r.keys === undefined ? built : withKeys(built, r.keys);
}

/** Refuses anything but an apache-arrow Table (checked by shape: apache-arrow is not loaded here). */
function checkTable(t: unknown): void {
  const x = t as Partial<Table> | null;
  const ok = typeof x === 'object' && x !== null && typeof x.numRows === 'number' && typeof x.getChild === 'function' && Array.isArray(x.schema?.fields);
  if (ok) return;
  const bytes = t instanceof Uint8Array || t instanceof ArrayBuffer;
  throw new TesseraError(`fromArrow takes an apache-arrow Table of edges, got ${bytes ? 'bytes (Arrow IPC?)' : describe(t)}`, {
    fix: bytes
      ? 'decode them first: fromArrow(tableFromIPC(bytes)), or write them to a .arrow file and loadGraph it'
      : "pass a Table (apache-arrow's tableFromArrays / tableFromIPC) with source and target columns",
  });
}

/** An Arrow IPC file's bytes. */
export const tableBytes = async (t: Table): Promise<Uint8Array> => (await arrow()).tableToIPC(t, 'file');
