/**
 * Checkpoint and resume for the library and the CLI (the engine's half is engine/checkpoint.ts):
 * what a checkpoint records about its run (the graph's identity, the program, its resolved
 * parameters, the topology and set-up, and whatever the caller adds, e.g. the CLI's flags), and
 * the checks that refuse a checkpoint of another graph, program or parameters in one line.
 */
import { createHash } from 'node:crypto';
import { access, constants, stat } from 'node:fs/promises';
import path from 'node:path';
import { TesseraError } from './errors.js';
import type { Graph } from './graph/types.js';
import { tsrChecksum } from './graph/tsr-format.js';
import { pageView } from './graph/pages.js';
import type { AnyProgram } from './engine/define.js';
import { CheckpointWriter, readCheckpoint, type CheckpointPolicy, type Json, type LoadedCheckpoint } from './engine/checkpoint.js';
import type { RunCheckpointing } from './engine/coordinator.js';
import type { Topology } from './topology/schema.js';

/** Where and how often a run writes checkpoints (`checkpoint` in run's options). */
export interface CheckpointOptions extends CheckpointPolicy {
  /** The folder (created when missing; one run at a time). */
  dir: string;
}

/** Checkpointing of one run: options beside the program's parameters and the set-up. */
export interface RunControl {
  /**
   * Write checkpoints into a folder: every `every` supersteps or `interval` seconds (default
   * every 60 s). The folder's checkpoint is removed when the run succeeds.
   */
  checkpoint?: string | CheckpointOptions;
  /**
   * Continue the run whose checkpoint is in this folder: the same graph, program and parameters
   * (refused otherwise), on this topology (a change is reported). Checkpoints go on into the same
   * folder unless `checkpoint` names another.
   */
  resume?: string;
}

/** What identifies a graph: counts, directedness, and a hash of its page structure and id map. */
export interface GraphIdentity {
  source: string;
  vertices: number;
  edges: number;
  directed: boolean;
  weighted: boolean;
  hash: string;
}

const identities = new WeakMap<Graph, GraphIdentity>();

/**
 * The graph's identity (hashed once per graph): its id map and each page's shape and .tsr checksum
 * (store.ts: a page's blob is its buffer), so a graph read from disk page by page is known by its
 * file's page table without reading a page, and equals the same graph held in memory.
 */
export function graphIdentity(g: Graph): GraphIdentity {
  const known = identities.get(g);
  if (known !== undefined) return known;
  const h = createHash('sha256');
  h.update(new Uint8Array(g.ids.toOriginal.buffer, g.ids.toOriginal.byteOffset, g.ids.toOriginal.byteLength));
  for (const set of g.in === g.out ? [g.out] : [g.out, g.in]) {
    const st = set.stored;
    for (const p of set.pages) {
      const sum = st !== undefined ? st.store.entries[st.base + p.index]!.checksum : tsrChecksum(pageView(p));
      h.update(Uint32Array.of(p.vBegin, p.vEnd, p.edges, p.split ? 1 : 0, sum));
    }
  }
  const id: GraphIdentity = {
    source: g.source,
    vertices: g.numVertices,
    edges: g.numEdges,
    directed: g.directed,
    weighted: g.weightType !== undefined,
    hash: h.digest('hex').slice(0, 32),
  };
  identities.set(g, id);
  return id;
}

/** Resolved parameters as JSON (internal ids as numbers; undefined left out), for the manifest and comparison. */
export function paramsJson(x: unknown): Json {
  if (x === undefined || x === null) return null;
  if (typeof x === 'number') return Number.isFinite(x) && !Object.is(x, -0) ? x : String(x);
  if (typeof x === 'string' || typeof x === 'boolean') return x;
  if (ArrayBuffer.isView(x)) return Array.from(x as unknown as ArrayLike<number>, (v) => paramsJson(v));
  if (Array.isArray(x)) return x.map(paramsJson);
  if (typeof x === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(x)) if (v !== undefined) out[k] = paramsJson(v);
    return out;
  }
  return String(x);
}

/** The header of every checkpoint a run writes. */
interface Header {
  [k: string]: Json;
  graph: GraphIdentity & { [k: string]: Json };
  program: { name: string; kernels: string };
  params: Json;
  topology: Json;
  policy: { every: number | null; interval: number | null };
  /** The caller's own record (the CLI's flags, so that `--resume DIR` alone continues the run). */
  extra: Json;
}

function shape(t: Pick<Topology, 'name' | 'sockets' | 'gpus'>): string {
  const threads = t.sockets.reduce((a, s) => a + s.threads, 0);
  const gpus = t.gpus.length === 0 ? '' : `, ${t.gpus.length} GPU${t.gpus.length > 1 ? 's' : ''}${t.gpus.every((g) => g.emulated) ? ' (emulated)' : ''}`;
  return `'${t.name}' (${t.sockets.length} socket${t.sockets.length > 1 ? 's' : ''}, ${threads} threads${gpus})`;
}

function shortJson(j: Json): string {
  const s = JSON.stringify(j);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** Reads a run's checkpoint, or explains in one line that the folder holds none. */
export async function loadCheckpoint(dir: string): Promise<LoadedCheckpoint> {
  const loaded = await readCheckpoint(dir);
  if (loaded === undefined) {
    throw new TesseraError('no checkpoint here to resume (no manifest.json: the run finished, or wrote none yet)', { file: dir, key: '--resume', fix: 'start the run without --resume' });
  }
  return loaded;
}

/**
 * Checks that a checkpoint is of this graph, program and parameters: a mismatch is one line
 * naming both sides. Returns a notice when the topology differs (the run goes on there).
 */
export function checkIdentity(loaded: LoadedCheckpoint, graph: Graph, program: AnyProgram, params: unknown, topology: Topology): string | undefined {
  const h = loaded.manifest.header as Header;
  const dir = loaded.dir;
  const refuse = (what: string, fix: string): never => {
    throw new TesseraError(what, { file: dir, key: '--resume', fix });
  };
  if (h.program.name !== program.name || h.program.kernels !== program.kernels) {
    refuse(
      h.program.name !== program.name ? `the checkpoint is of program '${h.program.name}', not '${program.name}'` : `the checkpoint is of program '${h.program.name}' from ${h.program.kernels}, not from ${program.kernels}`,
      `resume it with --algo ${h.program.name} (or leave --algo out), or start a new run without --resume`,
    );
  }
  const g = graphIdentity(graph);
  const was = h.graph;
  if (was.hash !== g.hash || was.vertices !== g.vertices || was.edges !== g.edges || was.directed !== g.directed) {
    refuse(
      `the checkpoint is of graph ${was.source} (${was.vertices} vertices, ${was.edges} edges, ${was.directed ? 'directed' : 'undirected'}, hash ${was.hash.slice(0, 12)}), not of ${g.source} (${g.vertices} vertices, ${g.edges} edges, hash ${g.hash.slice(0, 12)})`,
      `resume it with --graph ${was.source} and the same loading flags such as --undirected and --page-edges (or leave them out), or start a new run without --resume`,
    );
  }
  const now = paramsJson(params);
  if (JSON.stringify(now) !== JSON.stringify(h.params)) {
    const a = (h.params ?? {}) as { [k: string]: Json };
    const b = (now ?? {}) as { [k: string]: Json };
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    const diff = keys.map((k) => `${k} ${a[k] === undefined ? 'unset' : shortJson(a[k]!)} there, ${b[k] === undefined ? 'unset' : shortJson(b[k]!)} here`).join('; ');
    refuse(`the checkpoint's ${program.name} run has other parameters: ${diff}`, 'resume with the parameters it was started with (or leave them out), or start a new run without --resume');
  }
  const t = h.topology as unknown as Topology;
  return shape(t) === shape(topology) ? undefined : `resuming on topology ${shape(topology)}; the checkpoint was written on ${shape(t)}`;
}

/**
 * The engine's checkpointing of a run: the writer (when checkpointing) and the checkpoint it
 * resumes from (already checked by checkIdentity). A fresh run into a folder that holds a
 * checkpoint is refused: that checkpoint would be lost.
 */
export async function planCheckpoint(
  control: RunControl,
  graph: Graph,
  program: AnyProgram,
  params: unknown,
  topology: Topology,
  resumed: LoadedCheckpoint | undefined,
  extra: Json = null,
): Promise<RunCheckpointing> {
  const opts: CheckpointOptions | undefined = typeof control.checkpoint === 'string' ? { dir: control.checkpoint } : control.checkpoint;
  for (const [k, v] of [['every', opts?.every], ['interval', opts?.interval]] as const) {
    if (v !== undefined && !(v > 0 && (k === 'interval' || Number.isSafeInteger(v)))) {
      throw new TesseraError(`checkpoint ${k} ${v} is not a positive ${k === 'every' ? 'integer' : 'number'}`, { key: k === 'every' ? '--checkpoint-every' : '--checkpoint-interval', fix: k === 'every' ? 'give a number of supersteps >= 1' : 'give seconds > 0' });
    }
  }
  if (control.checkpoint !== undefined && (opts === null || typeof opts !== 'object' || (typeof opts.dir !== 'string' && resumed === undefined)))
    throw new TesseraError(`checkpoint ${JSON.stringify(control.checkpoint) ?? String(control.checkpoint)} names no folder to write into`, {
      key: 'checkpoint',
      fix: "give checkpoint: 'DIR' or { dir: 'DIR', every, interval } (a resumed run may leave dir out: it goes on in its folder)",
    });
  const dir = opts?.dir ?? resumed?.dir;
  if (dir === undefined) return resumed !== undefined ? { resume: resumed } : {};
  const was = resumed?.manifest.header as Header | undefined;
  const policy: CheckpointPolicy =
    opts?.every !== undefined || opts?.interval !== undefined
      ? { every: opts.every, interval: opts.interval }
      : { every: was?.policy.every ?? undefined, interval: was?.policy.interval ?? undefined };
  const sameDir = resumed !== undefined && path.resolve(resumed.dir) === path.resolve(dir);
  if (!sameDir) {
    await checkWritableFolder(dir);
    const there = await readCheckpoint(dir).catch((e: unknown) => {
      throw new TesseraError(`the folder holds a damaged checkpoint (${e instanceof TesseraError ? e.message.replace(/^.*?the checkpoint is damaged: /, '').replace(/\s*\(at --resume\)\..*$/, '') : String(e)})`, {
        file: dir,
        key: '--checkpoint',
        fix: 'remove it, or checkpoint into another folder',
      });
    });
    if (there !== undefined) {
      const h = there.manifest.header as Header;
      throw new TesseraError(`the folder already holds a checkpoint (${h.program.name} on ${h.graph.source}, before superstep ${there.manifest.step})`, {
        file: dir,
        key: '--checkpoint',
        fix: `continue it with --resume ${dir}, or remove it, or checkpoint into another folder`,
      });
    }
  }
  const header: Header = {
    graph: { ...graphIdentity(graph) },
    program: { name: program.name, kernels: program.kernels },
    params: paramsJson(params),
    topology: topology as unknown as Json,
    policy: { every: policy.every ?? null, interval: policy.interval ?? null },
    extra: was !== undefined && extra === null ? was.extra : extra,
  };
  const m = resumed?.manifest;
  const writer = new CheckpointWriter(dir, header, policy, m?.seq ?? 0, m?.step ?? 0, sameDir ? m?.data : undefined);
  return { writer, ...(resumed !== undefined ? { resume: resumed } : {}) };
}

/**
 * A checkpoint folder that can be written: an existing writable folder, or a path whose nearest
 * existing parent is one (the writer creates the rest). Checked before the run, not at its first
 * checkpoint (the default policy writes one only after 60 s).
 */
export async function checkWritableFolder(dir: string): Promise<void> {
  const refuse = (why: string): TesseraError => new TesseraError(`cannot checkpoint into this folder: ${why}`, { file: dir || "''", key: '--checkpoint', fix: 'name a folder you can write (it is created if missing)' });
  if (dir.trim() === '') throw refuse('the path is empty');
  let at = path.resolve(dir);
  for (;;) {
    const st = await stat(at).catch(() => undefined);
    if (st !== undefined) {
      if (!st.isDirectory()) {
        if (at !== path.resolve(dir)) throw refuse(`${at} is a file`);
        throw new TesseraError(`--checkpoint ${dir} is a file, not a folder`, { file: dir, key: '--checkpoint', fix: 'name a folder for the checkpoints (it is created if missing)' });
      }
      await access(at, constants.W_OK | constants.X_OK).catch(() => {
        throw refuse(`${at} is not writable`);
      });
      return;
    }
    const up = path.dirname(at);
    if (up === at) throw refuse('no part of the path exists');
    at = up;
  }
}

/** The caller's record of a checkpoint (planCheckpoint's `extra`), and the topology it ran on. */
export function checkpointRecord(loaded: LoadedCheckpoint): { extra: Json; topology: Topology; program: string; kernels: string } {
  const h = loaded.manifest.header as Header;
  return { extra: h.extra, topology: h.topology as unknown as Topology, program: h.program.name, kernels: h.program.kernels };
}
