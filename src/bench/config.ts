/**
 * The sweep configuration (bench/config.yaml): graphs x topologies x programs x repetitions,
 * optional alpha values for CPU+GPU topologies, and the peers. YAML parsed with `yaml`,
 * validated with zod; every error names the file, line, key and a fix. Relative paths (topology
 * files, graph files, peer builds) are resolved against the config file's folder.
 */
import { yamlValue } from '../topology/parse.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { TesseraError } from '../errors.js';
import { PROGRAMS, programNamed } from '../programs/index.js';

const scales = z.union([z.number().int().min(1).max(31), z.array(z.number().int().min(1).max(31)).min(1)]);
const graphCommon = {
  weighted: z.boolean().default(false),
  undirected: z.boolean().default(false),
  /** Original id of the bfs/sssp source (default: the Graphalytics .properties source, else the highest-degree vertex). */
  source: z.number().int().nonnegative().optional(),
};
// Generator keys belong to generated graphs alone: a file entry's edgeFactor or seed would be
// ignored, so it is refused (the schema is strict).
const generatorKeys = {
  /** Edges per vertex for generators (Graph500 default 16). */
  edgeFactor: z.number().int().positive().optional(),
  seed: z.number().int().nonnegative().optional(),
};
const fileEntry = z.object({ file: z.string().min(1), label: z.string().optional(), ...graphCommon }).strict();
const graphEntry = z.union([
  z.object({ rmat: scales, ...graphCommon, ...generatorKeys }).strict(),
  z.object({ uniform: scales, ...graphCommon, ...generatorKeys }).strict(),
  fileEntry,
]);

const programParams = z
  .object({
    iterations: z.number().int().nonnegative().optional(),
    damping: z.number().min(0).max(1).optional(),
    window: z.number().positive().optional(),
    sources: z.number().int().positive().optional(),
    seed: z.number().int().nonnegative().optional(),
    /** louvain's modularity resolution. */
    resolution: z.number().positive().optional(),
    /** Force every superstep's mode (tessera run --mode): push-only BFS is TOTEM's top-down BFS. */
    mode: z.enum(['push', 'pull']).optional(),
  })
  .strict();
const programEntry = z.union([z.string(), z.record(z.string(), programParams.nullable())]);

const configSchema = z
  .object({
    name: z.string().default('bench'),
    repetitions: z.number().int().min(1).default(3),
    warmup: z.number().int().min(0).default(1),
    /** Seconds one cell may take (warm-up and repetitions together) before it is stopped. */
    cellTimeout: z.number().positive().default(300),
    graphs: z.array(graphEntry).min(1, 'needs at least one graph'),
    topologies: z.array(z.string().min(1)).min(1, 'needs at least one topology file'),
    programs: z.array(programEntry).min(1, 'needs at least one program'),
    /**
     * TOTEM alpha values (CPU share of edges) swept on topologies that have GPUs; `auto` adds a
     * cell run at the split the performance model picks (as `tessera run --alpha auto`).
     */
    alphas: z.array(z.union([z.number().min(0).max(1), z.literal('auto')])).default([]),
    /** Page stealing in tessera cells (the engine's --steal); off measures the model's split as given. */
    steal: z.enum(['auto', 'off', 'always']).default('auto'),
    /**
     * The partition strategy of the swept alpha cells (the engine's --partition): high (hubs on
     * the CPU, TOTEM's HIGH), low (hubs on the GPUs) or rand. One strategy per sweep.
     */
    partition: z.enum(['high', 'low', 'rand']).default('high'),
    /**
     * On topologies with two GPUs or more: how they share the GPU side (the engine's --multi-gpu):
     * p (one range each, the default), s (pages dealt round-robin) or auto (the performance model
     * picks). Unset, a program whose GPU loop needs one GPU (soleGpu) runs on the first alone.
     */
    multiGpu: z.enum(['p', 's', 'auto']).optional(),
    peers: z
      .object({
        graphology: z.union([z.literal(false), z.object({ maxEdges: z.number().int().positive().default(2_000_000) }).strict()]).default({ maxEdges: 2_000_000 }),
        /** A GAPBS build folder (holding bfs, pr, cc, sssp binaries), or null. */
        gapbs: z.string().nullable().default(null),
      })
      .strict()
      .default({ graphology: { maxEdges: 2_000_000 }, gapbs: null }),
  })
  .strict();

export interface GraphPlan {
  id: string;
  /** Generator spec (rmat:16:weighted) or an absolute file path. */
  spec: string;
  kind: 'rmat' | 'uniform' | 'file';
  scale: number | null;
  weighted: boolean;
  undirected: boolean;
  source?: number;
}

export interface ProgramPlan {
  /** Canonical algorithm name (pr, not pagerank). */
  name: string;
  params: z.infer<typeof programParams>;
}

/** The program as cells, curves and tables name it: `bfs`, or `bfs:push` when its mode is forced. */
export function programLabel(p: ProgramPlan): string {
  return p.params.mode === undefined ? p.name : `${p.name}:${p.params.mode}`;
}

export interface BenchConfig {
  file: string;
  name: string;
  repetitions: number;
  warmup: number;
  cellTimeoutMs: number;
  graphs: GraphPlan[];
  /** Absolute topology file paths. */
  topologies: string[];
  programs: ProgramPlan[];
  alphas: Array<number | 'auto'>;
  steal: 'auto' | 'off' | 'always';
  partition: 'high' | 'low' | 'rand';
  multiGpu?: 'p' | 's' | 'auto';
  peers: { graphology: false | { maxEdges: number }; gapbs: string | null };
}

export async function loadBenchConfig(file: string): Promise<BenchConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new TesseraError('benchmark config not found', { file, key: '--config', fix: 'give a YAML sweep such as bench/config.yaml' });
  }
  return parseBenchConfig(text, file);
}

export function parseBenchConfig(text: string, file: string): BenchConfig {
  // The LineCounter gives a YAML error its line (e.linePos is set only with prettyErrors).
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new TesseraError(`invalid YAML: ${e.message.split('\n')[0]}`, { file, line: lineCounter.linePos(e.pos[0]).line, fix: 'check indentation and that each key is followed by a colon' });
  }
  const lineOf = (p: PropertyKey[]): number | undefined => {
    const node = p.length > 0 ? doc.getIn(p as unknown[], true) : undefined;
    const range = (node as { range?: [number, number] } | undefined)?.range;
    return range ? text.slice(0, range[0]).split('\n').length : undefined;
  };
  const value = yamlValue(doc, file) ?? {};
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) {
    const issue = fileEntryIssue(value) ?? parsed.error.issues[0]!;
    const key = issue.path.join('.') || '(top level)';
    let fix = 'see bench/config.yaml for a valid example';
    if (issue.code === 'unrecognized_keys' && key.startsWith('graphs') && issue.keys.some((k) => k in generatorKeys)) fix = `remove ${issue.keys.map((k) => `'${k}'`).join(', ')}: edgeFactor and seed apply to generated graphs (rmat, uniform), not to a file`;
    else if (issue.code === 'unrecognized_keys') fix = `remove or rename ${issue.keys.map((k) => `'${k}'`).join(', ')} (see bench/config.yaml)`;
    else if (key.startsWith('graphs')) fix = 'each graph is { rmat: [14, 16] }, { uniform: 16 } or { file: path }, with optional weighted/undirected';
    else if (key.startsWith('programs')) fix = `list program names (${PROGRAMS.map((p) => p.name).join(', ')}), optionally with parameters: { pr: { iterations: 10 } }, { bfs: { mode: push } } (mode: push or pull)`;
    throw new TesseraError(`invalid benchmark config: ${key}: ${issue.message}`, { file, line: lineOf(issue.path), key, fix });
  }
  const c = parsed.data;
  const dir = path.dirname(path.resolve(file));
  const graphs: GraphPlan[] = [];
  const seen = new Set<string>();
  c.graphs.forEach((g, i) => {
    const opts = [
      'edgeFactor' in g && g.edgeFactor !== undefined ? `ef=${g.edgeFactor}` : '',
      'seed' in g && g.seed !== undefined ? `seed=${g.seed}` : '',
      g.weighted ? 'weighted' : '',
    ].filter(Boolean);
    const add = (p: GraphPlan): void => {
      if (seen.has(p.id)) throw new TesseraError(`graph '${p.id}' is listed twice`, { file, line: lineOf(['graphs', i]), key: `graphs.${i}`, fix: 'list each graph once' });
      seen.add(p.id);
      graphs.push(p);
    };
    const base = { weighted: g.weighted, undirected: g.undirected, ...(g.source !== undefined ? { source: g.source } : {}) };
    if ('file' in g) {
      const abs = path.resolve(dir, g.file);
      add({ id: g.label ?? path.basename(g.file) + (g.undirected ? ':undirected' : ''), spec: abs, kind: 'file', scale: null, ...base });
    } else {
      const kind = 'rmat' in g ? 'rmat' : 'uniform';
      const list = 'rmat' in g ? g.rmat : g.uniform;
      for (const s of Array.isArray(list) ? list : [list]) {
        const spec = [kind, String(s), ...opts].join(':');
        add({ id: spec + (g.undirected ? ':undirected' : ''), spec, kind, scale: s, ...base });
      }
    }
  });
  const topologies = c.topologies.map((t) => path.resolve(dir, t));
  topologies.forEach((t, i) => {
    if (topologies.indexOf(t) !== i) throw new TesseraError(`topology '${c.topologies[i]}' is listed twice`, { file, line: lineOf(['topologies', i]), key: `topologies.${i}`, fix: 'list each topology once' });
  });
  const labels = new Set<string>();
  const programs: ProgramPlan[] = c.programs.flatMap((p, i) => {
    const entries: Array<[string, z.infer<typeof programParams>]> = typeof p === 'string' ? [[p, {}]] : Object.entries(p).map(([k, v]) => [k, v ?? {}]);
    return entries.map(([name, params]) => {
      const program = programNamed(name);
      if (program === undefined) {
        throw new TesseraError(`unknown program '${name}'`, { file, line: lineOf(['programs', i]), key: `programs.${i}`, fix: `use one of ${PROGRAMS.map((p) => p.name).join(', ')}` });
      }
      for (const k of Object.keys(params)) {
        if (k !== 'mode' && !(k in program.params)) {
          const takes = Object.keys(program.params);
          throw new TesseraError(`program '${name}' has no parameter '${k}'`, { file, line: lineOf(['programs', i]), key: `programs.${i}.${name}.${k}`, fix: takes.length > 0 ? `remove it (${program.name} takes ${takes.join(', ')}, and mode)` : `remove it (${program.name} takes only mode)` });
        }
      }
      const plan = { name: program.name, params };
      // Cells are named by the program's label: a repeat would run cells sharing one id.
      if (labels.has(programLabel(plan))) throw new TesseraError(`program '${programLabel(plan)}' is listed twice`, { file, line: lineOf(['programs', i]), key: `programs.${i}`, fix: 'list each program (and mode) once; one parameter set per program' });
      labels.add(programLabel(plan));
      return plan;
    });
  });
  return {
    file: path.resolve(file),
    name: c.name,
    repetitions: c.repetitions,
    warmup: c.warmup,
    cellTimeoutMs: c.cellTimeout * 1000,
    graphs,
    topologies,
    programs,
    alphas: c.alphas,
    steal: c.steal,
    partition: c.partition,
    multiGpu: c.multiGpu,
    peers: { graphology: c.peers.graphology, gapbs: c.peers.gapbs === null ? null : path.resolve(dir, c.peers.gapbs) },
  };
}

/**
 * The issue of the first graph entry with a `file` key that fails the file entry's schema: the
 * union's first issue would name the generator branches (rmat required) instead.
 */
function fileEntryIssue(value: unknown): z.ZodIssue | undefined {
  const graphs = (value as { graphs?: unknown }).graphs;
  if (!Array.isArray(graphs)) return undefined;
  for (const [i, g] of graphs.entries()) {
    if (typeof g !== 'object' || g === null || !('file' in g)) continue;
    const r = fileEntry.safeParse(g);
    if (!r.success) return { ...r.error.issues[0]!, path: ['graphs', i, ...r.error.issues[0]!.path] };
  }
  return undefined;
}
