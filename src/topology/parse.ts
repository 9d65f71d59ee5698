/**
 * Topology files and objects checked: YAML parsed (the yaml package) and validated against the
 * schema (zod). Kept apart from load.ts so that a run on the detected machine, the CLI's default,
 * loads neither package (about a hundred modules).
 */
import os from 'node:os';
import path from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { ZodError } from 'zod';
import { TesseraError } from '../errors.js';
import { parseSize, topologySchema, type Topology } from './schema.js';

export function parseTopology(text: string, file: string): Topology {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new TesseraError(`invalid YAML: ${e.message.split('\n')[0]}`, {
      file,
      line: lineCounter.linePos(e.pos[0]).line,
      fix: 'check indentation and that each key is followed by a colon',
    });
  }
  return resolve(yamlValue(doc, file), file, { doc, lineCounter });
}

/**
 * The document's value; a document whose aliases expand past the yaml package's limit (an alias
 * bomb: a few lines that would expand to gigabytes) is a clear error, not an internal one.
 */
export function yamlValue(doc: ReturnType<typeof parseDocument>, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new TesseraError(`the YAML expands too far (${(e as Error).message})`, { file, fix: 'write the values out instead of nesting aliases (*name) of aliases' });
  }
}

/** Threads a topology may start per core of this machine: more only queue on the same cores. */
export const MAX_THREADS_PER_CORE = 4;

/**
 * Checks a topology given as an object (the library's `topology` option) as a file is checked:
 * the same schema, defaults and limits; errors name the key.
 */
export function checkTopology(t: unknown): Topology {
  const o = (t ?? {}) as Record<string, unknown>;
  const source = typeof o.source === 'string' ? o.source : 'topology object';
  const { source: _s, ...rest } = o;
  return resolve(rest, source, undefined);
}

/** The parsed document and its line counter: lines are those of the original text. */
interface Source {
  doc: ReturnType<typeof parseDocument>;
  lineCounter: LineCounter;
}

function resolve(data: unknown, file: string, src: Source | undefined): Topology {
  const parsed = topologySchema.safeParse(data);
  if (!parsed.success) throw schemaError(parsed.error, file, src);
  const t = parsed.data;
  const cores = os.availableParallelism();
  const sockets = t.sockets.map((s, i) => ({
    id: s.id ?? i,
    threads: s.threads === 'auto' ? Math.max(1, Math.floor(cores / t.sockets.length)) : s.threads,
  }));
  const ids = new Set<number>();
  sockets.forEach((s, i) => {
    if (ids.has(s.id)) throw new TesseraError(`socket id ${s.id} is listed twice`, { file, key: `sockets.${i}.id`, fix: 'give each socket its own id (or leave ids out: they default to the position)' });
    ids.add(s.id);
  });
  const total = sockets.reduce((a, s) => a + s.threads, 0);
  if (total > MAX_THREADS_PER_CORE * cores) {
    throw new TesseraError(`the sockets ask for ${total} threads, and this machine has ${cores} cores`, {
      file,
      key: 'sockets',
      // Every socket on auto still gets one thread each: only fewer sockets help then.
      fix: t.sockets.every((s) => s.threads === 'auto')
        ? `list at most ${MAX_THREADS_PER_CORE * cores} sockets (threads: auto gives each socket at least one thread)`
        : `use at most ${MAX_THREADS_PER_CORE * cores} threads in all (${MAX_THREADS_PER_CORE} per core), or threads: auto`,
    });
  }
  const seen = new Set<number>();
  for (const g of t.gpus) {
    if (seen.has(g.device)) throw new TesseraError(`GPU device ${g.device} is listed twice`, { file, key: 'gpus', fix: 'list each device index once' });
    seen.add(g.device);
  }
  return {
    name: t.name ?? path.basename(file).replace(/\.ya?ml$/, ''),
    source: file,
    sockets,
    gpus: t.gpus.map((g) => ({
      device: g.device,
      emulated: g.emulated,
      streams: g.streams,
      ...(g.memoryLimit !== undefined ? { memoryLimit: parseSize(g.memoryLimit) } : {}),
    })),
    interconnect: { ...(t.interconnect?.bandwidth !== undefined ? { bandwidth: parseSize(t.interconnect.bandwidth) } : {}) },
    model: t.model ?? {},
    ...(t.hostMemoryLimit !== undefined ? { hostMemoryLimit: parseSize(t.hostMemoryLimit) } : {}),
  };
}

function schemaError(err: ZodError, file: string, src: Source | undefined): TesseraError {
  const issue = err.issues[0]!;
  const key = issue.path.join('.') || '(top level)';
  const line = src !== undefined ? issueLine(src, issue) : undefined;
  let fix = 'see configs/1S.yaml for a valid example';
  if (issue.code === 'unrecognized_keys') fix = `remove or rename ${issue.keys.map((k) => `'${k}'`).join(', ')} (allowed keys are in configs/1S.yaml)`;
  else if (key.endsWith('threads')) fix = "use a positive integer or 'auto'";
  else if (key.endsWith('emoryLimit')) fix = 'use a size such as 8GiB';
  else if (key.endsWith('bandwidth')) fix = 'use a positive bandwidth such as 25GB/s';
  else if (key.startsWith('sockets')) fix = 'list at least one socket, e.g. "sockets: [{ threads: auto }]"';
  return new TesseraError(`invalid topology: ${key}: ${issue.message}`, { file, line, key, fix });
}

/**
 * The line of the offending key in the original text (the LineCounter's, not doc.toString()'s,
 * which drops comments and blank lines): an unknown key's own line, else the value's.
 */
function issueLine({ doc, lineCounter }: Source, issue: ZodError['issues'][number]): number | undefined {
  let node = issue.path.length > 0 ? doc.getIn(issue.path, true) : doc.contents;
  if (issue.code === 'unrecognized_keys' && isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && p.key.value === issue.keys[0]);
    if (pair !== undefined) node = pair.key;
  }
  const range = (node as { range?: [number, number] } | null | undefined)?.range;
  return range ? lineCounter.linePos(range[0]).line : undefined;
}
