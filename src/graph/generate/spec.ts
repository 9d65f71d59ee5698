/**
 * Generator specs: the short strings that name a synthetic graph wherever a file name is accepted.
 *
 *   rmat:SCALE[:key=value...]      RMAT / Kronecker, Graph500 parameters (a,b,c = 0.57,0.19,0.19)
 *   uniform:SCALE[:key=value...]   Erdos-Renyi G(n, m), n = 2^SCALE, m = edgeFactor * n
 *
 * keys: ef (or edge-factor / edgefactor) = edges per vertex (default 16), seed (default 1),
 * weighted (or w; a bare flag, or =1/=0/=true/=false), and for rmat a, b, c (d = 1 - a - b - c).
 * Examples: `rmat:20`, `uniform:18`, `rmat:20:ef=8:seed=3`, `rmat:16:weighted`.
 */
import { TesseraError } from '../../errors.js';
import { checkBoolean, checkInteger, checkOptions, describe } from '../options.js';

export type GeneratorKind = 'rmat' | 'uniform';

export interface GeneratorSpec {
  kind: GeneratorKind;
  /** log2 of the vertex id space: ids are in [0, 2^scale). 1..31. */
  scale: number;
  /** Edges per vertex: the generator emits edgeFactor * 2^scale edges (before dedupe). */
  edgeFactor: number;
  /** Any safe integer >= 0; same seed, same edges. */
  seed: number;
  /** Emit weights uniform over k / 10^6, k = 1..10^6 (in (0, 1]), stored as float32. */
  weighted: boolean;
  /** RMAT quadrant probabilities (d = 1 - a - b - c). Default Graph500: 0.57, 0.19, 0.19. */
  a?: number;
  b?: number;
  c?: number;
  /** RMAT: scramble vertex ids with a seeded bijection of [0, 2^scale) (default true). */
  scramble?: boolean;
}

export const GRAPH500 = { a: 0.57, b: 0.19, c: 0.19 } as const;
export const DEFAULT_EDGE_FACTOR = 16;
export const DEFAULT_SEED = 1;
export const MAX_SCALE = 31;

const SPEC_RE = /^(rmat|kron|kronecker|uniform|er)(:|$)/i;
const FIX = 'write e.g. rmat:20, uniform:18 or rmat:20:ef=8:seed=3:weighted';

/** True when `s` looks like a generator spec (rmat:..., uniform:...) rather than a file path. */
export function isGeneratorSpec(s: string): boolean {
  return SPEC_RE.test(s.trim());
}

/** Parses a generator spec; every problem is a TesseraError naming the spec and the bad part. */
export function parseGeneratorSpec(spec: string): GeneratorSpec {
  const text = spec.trim();
  const bad = (problem: string, key?: string): TesseraError =>
    new TesseraError(`bad generator spec '${spec}': ${problem}`, { key, fix: FIX });
  const parts = text.split(':');
  const head = parts[0]!.toLowerCase();
  let kind: GeneratorKind;
  if (head === 'rmat' || head === 'kron' || head === 'kronecker') kind = 'rmat';
  else if (head === 'uniform' || head === 'er') kind = 'uniform';
  else throw bad(`unknown generator '${parts[0]}' (known: rmat, uniform)`);
  if (parts.length < 2 || parts[1] === '') throw bad('the scale is missing', 'scale');
  const scale = parseIntStrict(parts[1]!);
  if (scale === undefined || scale < 1 || scale > MAX_SCALE) throw bad(`scale '${parts[1]}' must be an integer from 1 to ${MAX_SCALE}`, 'scale');
  const out: GeneratorSpec = { kind, scale, edgeFactor: DEFAULT_EDGE_FACTOR, seed: DEFAULT_SEED, weighted: false };
  const seen = new Set<string>();
  for (const part of parts.slice(2)) {
    if (part === '') throw bad('empty option (two colons in a row?)');
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).toLowerCase();
    const value = eq < 0 ? undefined : part.slice(eq + 1);
    const canon = key === 'edge-factor' || key === 'edgefactor' ? 'ef' : key === 'w' ? 'weighted' : key;
    if (seen.has(canon)) throw bad(`option '${key}' given twice`, key);
    seen.add(canon);
    switch (canon) {
      case 'ef': {
        const v = value === undefined ? undefined : parseIntStrict(value);
        if (v === undefined || v < 1 || v > 1 << 20) throw bad(`edge factor '${value ?? ''}' must be an integer from 1 to 1048576`, key);
        out.edgeFactor = v;
        break;
      }
      case 'seed': {
        const v = value === undefined ? undefined : parseIntStrict(value);
        if (v === undefined || v < 0) throw bad(`seed '${value ?? ''}' must be an integer >= 0`, key);
        out.seed = v;
        break;
      }
      case 'weighted': {
        const v = value === undefined ? 'true' : value.toLowerCase();
        if (v === 'true' || v === '1' || v === 'yes') out.weighted = true;
        else if (v === 'false' || v === '0' || v === 'no') out.weighted = false;
        else throw bad(`weighted must be a bare flag or =true/=false, got '${value}'`, key);
        break;
      }
      case 'scramble': {
        if (kind !== 'rmat') throw bad(`option 'scramble' applies to rmat only`, key);
        const v = value === undefined ? 'true' : value.toLowerCase();
        if (v === 'true' || v === '1') out.scramble = true;
        else if (v === 'false' || v === '0') out.scramble = false;
        else throw bad(`scramble must be a bare flag or =true/=false, got '${value}'`, key);
        break;
      }
      case 'a':
      case 'b':
      case 'c': {
        if (kind !== 'rmat') throw bad(`option '${key}' applies to rmat only`, key);
        const v = value === undefined || value.trim() === '' ? NaN : Number(value);
        if (!(v > 0 && v < 1)) throw bad(`${key} must be a probability in (0, 1), got '${value ?? ''}'`, key);
        out[canon] = v;
        break;
      }
      default:
        throw bad(`unknown option '${key}' (known: ef, seed, weighted${kind === 'rmat' ? ', a, b, c, scramble' : ''})`, key);
    }
  }
  if (kind === 'rmat') checkRmatParams(out, bad);
  const m = out.edgeFactor * 2 ** scale;
  if (!Number.isSafeInteger(m)) throw bad(`edge factor ${out.edgeFactor} at scale ${scale} is too many edges`, 'ef');
  return out;
}

function checkRmatParams(s: GeneratorSpec, bad: (p: string, k?: string) => TesseraError): void {
  const a = s.a ?? GRAPH500.a;
  const b = s.b ?? GRAPH500.b;
  const c = s.c ?? GRAPH500.c;
  const d = 1 - a - b - c;
  if (!(d >= 0)) throw bad(`a + b + c = ${+(a + b + c).toFixed(6)} exceeds 1`, 'a');
}

const SPEC_KEYS = ['kind', 'scale', 'edgeFactor', 'seed', 'weighted', 'a', 'b', 'c', 'scramble'] as const;
const RMAT_ONLY = ['a', 'b', 'c', 'scramble'] as const;

/**
 * Validates a spec built in code (generate's object form, the CLI's flags) with the rules of the
 * string form: the same options (edgeFactor for ef), the same ranges, scramble and a, b, c on
 * rmat only; besides, an unknown key or a value of the wrong type (weighted: 'yes') is refused,
 * never dropped. `what` names the caller in errors.
 */
export function checkGeneratorSpec(s: GeneratorSpec, what = 'generator spec'): GeneratorSpec {
  const bad = (problem: string, key: string, fix: string): TesseraError => new TesseraError(`${what}: ${problem}`, { key, fix });
  checkShortNames(s, what);
  const o = checkOptions(s, what, SPEC_KEYS);
  const head = typeof o.kind === 'string' ? o.kind.toLowerCase() : undefined;
  const kind: GeneratorKind | undefined = head === 'rmat' || head === 'kron' || head === 'kronecker' ? 'rmat' : head === 'uniform' || head === 'er' ? 'uniform' : undefined;
  if (kind === undefined) throw bad(`kind must be 'rmat' or 'uniform', got ${describe(o.kind)}`, 'kind', "pass kind: 'rmat' or kind: 'uniform'");
  if (o.scale === undefined) throw bad('the scale is missing', 'scale', 'add scale: S (2^S vertex ids), e.g. scale: 20');
  checkInteger(o, 'scale', what, 1, MAX_SCALE, 'use e.g. scale: 20');
  checkInteger(o, 'edgeFactor', what, 1, 1 << 20, 'use e.g. edgeFactor: 16 (the default), or leave it out');
  checkInteger(o, 'seed', what, 0, Number.MAX_SAFE_INTEGER, 'use any integer >= 0, or leave it out');
  checkBoolean(o, 'weighted', what);
  for (const k of RMAT_ONLY) {
    if (o[k] === undefined) continue;
    if (kind !== 'rmat') throw bad(`option '${k}' applies to rmat only`, k, `drop ${k}, or use kind: 'rmat'`);
    if (k === 'scramble') checkBoolean(o, k, what);
    else if (!(typeof o[k] === 'number' && (o[k] as number) > 0 && (o[k] as number) < 1)) throw bad(`${k} must be a probability in (0, 1), got ${describe(o[k])}`, k, `use e.g. ${k}: ${GRAPH500[k]} (the Graph500 value), or leave it out`);
  }
  const out: GeneratorSpec = { kind, scale: o.scale as number, edgeFactor: (o.edgeFactor as number | undefined) ?? DEFAULT_EDGE_FACTOR, seed: (o.seed as number | undefined) ?? DEFAULT_SEED, weighted: (o.weighted as boolean | undefined) ?? false };
  for (const k of RMAT_ONLY) if (o[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = o[k];
  if (kind === 'rmat') checkRmatParams(out, (p, k) => bad(p, k ?? 'a', 'give a, b and c that sum to at most 1 (d = 1 - a - b - c)'));
  // The string form's other checks of the whole (the edge count), on the canonical string.
  const parsed = parseGeneratorSpec(formatGeneratorSpec(out));
  // The string drops values equal to the defaults: the spec keeps what was given.
  return { ...parsed, ...(out.a !== undefined ? { a: out.a } : {}), ...(out.b !== undefined ? { b: out.b } : {}), ...(out.c !== undefined ? { c: out.c } : {}), ...(out.scramble !== undefined ? { scramble: out.scramble } : {}) };
}

/** The string form's short names (ef, w) in an object: refused, naming the object form's. */
function checkShortNames(s: unknown, what: string): void {
  if (s === null || typeof s !== 'object') return;
  for (const [short, long] of [['ef', 'edgeFactor'], ['edge-factor', 'edgeFactor'], ['w', 'weighted']] as const) {
    if ((s as Record<string, unknown>)[short] !== undefined) throw new TesseraError(`${what}: unknown option '${short}'`, { key: short, fix: `write ${long} (${short} is its name in a spec string)` });
  }
}

/** How a generated graph is stored (generate's second argument, or keys of its object form). */
export interface GeneratedBuild {
  undirected?: boolean;
  pageEdges?: number;
}

/**
 * generate()'s arguments: a spec string with optional build options, or one options object
 * holding the spec's fields and the build options. The object form takes no second argument
 * (its type has none): one given is refused rather than ignored.
 */
export function generateArguments(spec: unknown, opts: unknown): { spec: GeneratorSpec; build: GeneratedBuild } {
  const checkBuild = (o: Record<string, unknown>, what: string): GeneratedBuild => {
    checkBoolean(o, 'undirected', what);
    checkInteger(o, 'pageEdges', what, 1, 0x7fffffff, 'use e.g. 1048576, or leave it out');
    return { undirected: o.undirected as boolean | undefined, pageEdges: o.pageEdges as number | undefined };
  };
  if (typeof spec === 'string') return { spec: parseGeneratorSpec(spec), build: checkBuild(checkOptions(opts, 'generate options', ['undirected', 'pageEdges']), 'generate options') };
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new TesseraError(`generate expects a generator spec or options, got ${describe(spec)}`, { fix: "pass e.g. 'rmat:16' or { kind: 'rmat', scale: 16 }" });
  }
  if (opts !== undefined) {
    throw new TesseraError('generate with an options object takes no second argument', { fix: "put undirected and pageEdges in the object, e.g. generate({ kind: 'rmat', scale: 16, undirected: true })" });
  }
  checkShortNames(spec, 'generate options');
  checkOptions(spec, 'generate options', [...SPEC_KEYS, 'undirected', 'pageEdges']);
  const { undirected, pageEdges, ...fields } = spec as Record<string, unknown>;
  return { spec: checkGeneratorSpec(fields as unknown as GeneratorSpec, 'generate options'), build: checkBuild({ undirected, pageEdges }, 'generate options') };
}

/** The canonical string of a spec (every value spelled out), used as the graph's `source`. */
export function formatGeneratorSpec(s: GeneratorSpec): string {
  let out = `${s.kind}:${s.scale}:ef=${s.edgeFactor}:seed=${s.seed}`;
  if (s.kind === 'rmat') {
    if (s.a !== undefined && s.a !== GRAPH500.a) out += `:a=${s.a}`;
    if (s.b !== undefined && s.b !== GRAPH500.b) out += `:b=${s.b}`;
    if (s.c !== undefined && s.c !== GRAPH500.c) out += `:c=${s.c}`;
    if (s.scramble === false) out += ':scramble=false';
  }
  if (s.weighted) out += ':weighted';
  return out;
}

/** Edges the spec generates (edgeFactor * 2^scale), before self-loop and duplicate removal. */
export function specEdges(s: GeneratorSpec): number {
  return s.edgeFactor * 2 ** s.scale;
}

function parseIntStrict(v: string): number | undefined {
  if (!/^\s*\d+\s*$/.test(v)) return undefined;
  const x = Number(v);
  return Number.isSafeInteger(x) ? x : undefined;
}
