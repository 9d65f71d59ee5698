import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { ZodError } from 'zod';
import { TesseraError } from '../errors.js';
import { detectTopology } from './detect.js';
import { parseSize, topologySchema, type Topology } from './schema.js';

/** Loads a topology file, or detects the machine when `spec` is 'auto' / undefined. */
export async function loadTopology(spec?: string): Promise<Topology> {
  if (spec === undefined || spec === 'auto') return detectTopology();
  let text: string;
  try {
    text = await readFile(spec, 'utf8');
  } catch {
    throw new TesseraError('topology file not found', { file: spec, fix: 'give a path to a YAML topology (see configs/) or --topology auto' });
  }
  return parseTopology(text, spec);
}

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
  const parsed = topologySchema.safeParse(doc.toJS());
  if (!parsed.success) throw schemaError(parsed.error, file, doc);
  const t = parsed.data;
  const cores = os.availableParallelism();
  const sockets = t.sockets.map((s, i) => ({
    id: s.id ?? i,
    threads: s.threads === 'auto' ? Math.max(1, Math.floor(cores / t.sockets.length)) : s.threads,
  }));
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
  };
}

function schemaError(err: ZodError, file: string, doc: ReturnType<typeof parseDocument>): TesseraError {
  const issue = err.issues[0]!;
  const key = issue.path.join('.') || '(top level)';
  // Find the line of the offending key in the YAML, when it exists.
  let line: number | undefined;
  const node = issue.path.length > 0 ? doc.getIn(issue.path, true) : undefined;
  const range = (node as { range?: [number, number] } | undefined)?.range;
  if (range) line = doc.toString().slice(0, range[0]).split('\n').length;
  let fix = 'see configs/1S.yaml for a valid example';
  if (issue.code === 'unrecognized_keys') fix = `remove or rename ${issue.keys.map((k) => `'${k}'`).join(', ')} (allowed keys are in configs/1S.yaml)`;
  else if (key.endsWith('threads')) fix = "use a positive integer or 'auto'";
  else if (key.endsWith('memoryLimit')) fix = 'use a size such as 8GiB';
  else if (key.startsWith('sockets')) fix = 'list at least one socket, e.g. "sockets: [{ threads: auto }]"';
  return new TesseraError(`invalid topology: ${key}: ${issue.message}`, { file, line, key, fix });
}
