/**
 * buildGraph's edges as a caller writes them: plain number arrays or typed arrays (Uint32Array,
 * Int32Array, Float64Array...) for the ids and weights, turned into the chunked lists the readers
 * make (chunked.ts) with every value checked. Lists that are already chunked pass untouched (the
 * readers' and generators' fast path).
 */
import { TesseraError } from '../errors.js';
import { F32List, F64List, U32List, type WeightList } from './chunked.js';
import { checkBoolean, checkOneOf, checkOptions, checkString, describe } from './options.js';
import { MAX_ORIGINAL_ID, type RawEdges, type WeightType } from './types.js';

/** Ids or weights: a chunked list (readers), an array of numbers or a typed array. */
export type NumberList = ArrayLike<number>;

/** Edges for buildGraph: RawEdges, or the same with arrays; `directed` defaults to true. */
export interface EdgeArrays {
  src: U32List | NumberList;
  dst: U32List | NumberList;
  /** One per edge, finite (a Float32Array is stored as float32 unless weightType says otherwise). */
  weights?: WeightList | NumberList;
  /** Vertex ids that exist even without edges. */
  vertices?: U32List | NumberList;
  /** Whether the edges are directed (default true; false: each edge is stored both ways). */
  directed?: boolean;
  weightType?: WeightType;
  /** Where the edges came from, for reports and errors (default 'buildGraph input'). */
  source?: string;
  /** Readers' and generators' lists only (see RawEdges.maxId). */
  maxId?: number;
}

const KEYS = ['src', 'dst', 'weights', 'vertices', 'directed', 'weightType', 'source', 'maxId'] as const;
const WHAT = 'buildGraph edges';

const chunked = (x: unknown): boolean => x instanceof U32List || x instanceof F32List || x instanceof F64List;

/** A number array or a typed array of numbers (not a DataView, not BigInt64Array). */
function isNumberList(x: unknown): x is NumberList {
  if (Array.isArray(x)) return true;
  return ArrayBuffer.isView(x) && !(x instanceof DataView) && !(x instanceof BigInt64Array) && !(x instanceof BigUint64Array);
}

/** The edges as RawEdges: chunked lists as they are, arrays copied into lists and checked. */
export function toRawEdges(input: unknown): RawEdges {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new TesseraError(`buildGraph takes edges as an object, got ${describe(input)}`, { fix: 'pass { src: [...], dst: [...] } (arrays or typed arrays of ids; weights, vertices, directed optional)' });
  }
  const o = checkOptions(input, WHAT, KEYS);
  if (o.src === undefined || o.dst === undefined) {
    throw new TesseraError(`${WHAT}: src and dst are required`, { key: o.src === undefined ? 'src' : 'dst', fix: 'pass { src: [...], dst: [...] }: one source and one target id per edge' });
  }
  const lists = [o.src, o.dst, o.weights, o.vertices].filter((x) => x !== undefined);
  if (lists.every(chunked) && typeof o.directed === 'boolean' && typeof o.source === 'string') return o as unknown as RawEdges;
  checkBoolean(o, 'directed', WHAT);
  checkString(o, 'source', WHAT, "name where the edges came from, e.g. source: 'test', or leave it out");
  checkOneOf(o, 'weightType', WHAT, ['float32', 'float64']);
  if (o.maxId !== undefined && !lists.every(chunked)) {
    throw new TesseraError(`${WHAT}: maxId is a reader's promise about its own lists`, { key: 'maxId', fix: 'leave maxId out with arrays (the builder finds the largest id)' });
  }
  // Errors name the source when the caller gave one.
  const given = o.source as string | undefined;
  const source = given ?? 'buildGraph input';
  const weights = o.weights === undefined ? undefined : weightList(o.weights, given);
  const weightType = (o.weightType as WeightType | undefined) ?? (weights instanceof F32List ? 'float32' : weights === undefined ? undefined : 'float64');
  return {
    src: idList(o.src, 'src', given),
    dst: idList(o.dst, 'dst', given),
    ...(weights !== undefined ? { weights, weightType } : {}),
    ...(o.vertices !== undefined ? { vertices: idList(o.vertices, 'vertices', given) } : {}),
    directed: (o.directed as boolean | undefined) ?? true,
    source,
    ...(o.maxId !== undefined ? { maxId: o.maxId as number } : {}),
  };
}

function notAList(key: string, x: unknown, source: string | undefined): TesseraError {
  return new TesseraError(`${WHAT}: ${key} must be an array of numbers or a typed array, got ${describe(x)}`, {
    file: source,
    key,
    fix: `pass e.g. ${key}: [0, 1, 2] or ${key}: Uint32Array.from(...)`,
  });
}

function idList(x: unknown, key: string, source: string | undefined): U32List {
  if (x instanceof U32List) return x;
  if (!isNumberList(x)) throw notAList(key, x, source);
  const out = new U32List();
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as unknown;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_ORIGINAL_ID) {
      throw new TesseraError(`${WHAT}: ${key}[${i}] is ${describe(v)}, not a vertex id (an integer 0 to ${MAX_ORIGINAL_ID})`, { file: source, key, fix: 'use non-negative integer ids' });
    }
    out.push(v);
  }
  return out;
}

function weightList(x: unknown, source: string | undefined): WeightList {
  if (x instanceof F32List || x instanceof F64List) return x;
  if (!isNumberList(x)) throw notAList('weights', x, source);
  const out = x instanceof Float32Array ? new F32List() : new F64List();
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as unknown;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new TesseraError(`${WHAT}: weights[${i}] is ${describe(v)}, not a finite number`, { file: source, key: 'weights', fix: 'give every edge a finite numeric weight, or leave weights out' });
    }
    out.push(v);
  }
  return out;
}
