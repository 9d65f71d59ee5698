/** The run report: per superstep and per actor, plus totals (JSON and a terminal summary). */
import type { DiskStats, GpuStepStats, Mode } from '../wire/frames.js';
import { compact, compactBytes } from '../format.js';

export interface ActorStepReport {
  actor: string;
  kind: 'cpu' | 'gpu';
  tasks: number;
  pages: number;
  edges: number;
  computeMs: number;
  /** CPU actors: the time their threads spent running tasks, summed (threads x computeMs when none waited). */
  busyMs?: number;
  /**
   * From the superstep frames being sent to this actor's vote arriving, as the coordinator saw it
   * (voteMs - computeMs: the wait for the actor's thread to start and the frames in transit).
   */
  voteMs: number;
  /** Frame bytes the coordinator sent this actor in the superstep. */
  bytesSent: number;
  /** Messages to vertices in another actor's memory, before and after aggregation at the source. */
  messages: number;
  messagesAggregated: number;
  /** Tasks (pages or page ranges) this actor stole from other actors' queues, and their edges. */
  stolen: number;
  stolenEdges: number;
  /** countNext (a pull before a possible switch): out-edges of the vertices it activated. */
  nextEdges?: number;
  /** Socket actors over a page store: pages read from disk (DiskStats). */
  disk?: DiskStats;
  /** GPU actors: device counters (emulated flag, pages sent, cache hits/misses, bytes, kernel ms). */
  gpu?: GpuStepStats;
}

export interface StepReport {
  step: number;
  kernel: string;
  mode: Mode;
  frontier: number;
  active: number;
  edges: number;
  ms: number;
  /** Coordinator time before the superstep frames go out: the mode switch, the frontier list, the tasks. */
  planMs: number;
  /** Coordinator time folding what actors in other memories sent (merges, outboxes, copies). */
  foldMs: number;
  /** Coordinator time building the next frontier's list (push supersteps) after the fold. */
  listMs: number;
  actors: ActorStepReport[];
  /** Steal asks answered in this superstep, in order (absent when none). */
  steals?: StealEvent[];
  /** A team (RunContext.team): the threads that ran the kernel's team function, a whole phase in this one step. */
  team?: number;
  /** A vertex map (vertexMap / vertexFilter) the GPU actors ran with the kernel's GPU operator (its GPUs own every vertex). */
  vertexMap?: true;
}

/** One answer to an idle actor's ask (Garaph's page stealing), as the coordinator saw it. */
export interface StealEvent {
  /** Milliseconds from the superstep frames being sent. */
  atMs: number;
  thief: string;
  victim: string;
  /** Tasks and edges moved (0: the victim declined: the move would not pay, or its queue was empty). */
  tasks: number;
  edges: number;
  /** Edges the victim had left (queued or running) when it answered, before the move. */
  victimLeft: number;
}

/**
 * The run's time outside and inside supersteps: allocating and initialising the declared state,
 * vertexMap passes (on the CPU sockets), supersteps (sum of their ms), and the rest (the driver's
 * own code between them, results). A run whose total is far above its supersteps pays there.
 */
export interface RunPhases {
  allocMs: number;
  vertexMapMs: number;
  stepsMs: number;
  otherMs: number;
  /** Of the above: bringing state and frontiers GPUs held back to the host (actors/gpu/held.ts), when any was. */
  settleMs?: number;
}

export function runPhases(totalMs: number, allocMs: number, vertexMapMs: number, steps: ReadonlyArray<{ ms: number }>): RunPhases {
  const stepsMs = steps.reduce((a, s) => a + s.ms, 0);
  return { allocMs, vertexMapMs, stepsMs, otherMs: Math.max(0, totalMs - allocMs - vertexMapMs - stepsMs) };
}

export interface RunReport {
  program: string;
  graph: { source: string; vertices: number; edges: number; directed: boolean };
  topology: { name: string; source: string; sockets: Array<{ id: number; threads: number }>; gpus: unknown[] };
  supersteps: number;
  steps: StepReport[];
  totalMs: number;
  edgesProcessed: number;
  /** Edges processed per second over the whole run. */
  teps: number;
  /** Where the run's time went: see RunPhases. */
  phases: RunPhases;
  /** Program-specific facts (e.g. the SSSP update window). */
  notes: Record<string, string | number | boolean>;
  /** The performance model's choice and prediction beside the measurement (GPU topologies, --alpha auto). */
  model?: import('../model/report.js').ModelSummary;
  /**
   * GPU topologies: who owned what (partition.ts). strategy and seed as asked (explicit: ranges given
   * by the caller; RAND's always come from the model's page choice for the seed, so never); per GPU actor its owned ranges, vertices, and edges
   * of the page set the split was cut by (`pages`: in-edges, or out-edges for a RAND of out-pages).
   */
  partition?: {
    strategy: 'high' | 'low' | 'rand';
    /** Several GPUs: one range each ('p') or dealt pages ('s'; partition.ts MultiGpu). */
    multiGpu?: 'p' | 's';
    seed?: number;
    explicit: boolean;
    pages: 'in' | 'out';
    gpus: Array<{ actor: string; ranges: number; vertices: number; edges: number }>;
  };
  /** Page stealing: the policy the run used and the tasks moved between actors in all. */
  steal?: { policy: 'auto' | 'always' | 'off'; tasks: number; edges: number };
  /** Wall time to load or generate and build the graph, when the caller measured it. */
  loadMs?: number;
  /**
   * Wall time of the engine's start for this run (`run()` and the CLI, which start one a run): its
   * threads, its GPUs opened, their pages registered and copied; part of it may overlap the load.
   */
  startMs?: number;
}

const fmt = (x: number): string => `${compact(x)} `;

/** A readable summary for the terminal. */
export function summarize(r: RunReport): string {
  const lines: string[] = [];
  lines.push(
    `${r.program} on ${r.graph.source}: ${fmt(r.graph.vertices)}vertices, ${fmt(r.graph.edges)}edges (${r.graph.directed ? 'directed' : 'undirected'})`,
  );
  const threads = [
    ...r.topology.sockets.map((s) => `socket${s.id}:${s.threads}t`),
    ...(r.topology.gpus as Array<{ device: number; emulated?: boolean }>).map((g) => `gpu${g.device}${g.emulated ? ' (emulated)' : ''}`),
  ].join(' ');
  lines.push(`topology ${r.topology.name} (${r.topology.source}): ${threads}`);
  const modes = r.steps.reduce<Record<string, number>>((m, s) => ((m[s.mode] = (m[s.mode] ?? 0) + 1), m), {});
  lines.push(
    `${r.supersteps} supersteps (${Object.entries(modes).map(([k, v]) => `${v} ${k}`).join(', ')}), ${r.totalMs.toFixed(1)} ms, ` +
      `${fmt(r.edgesProcessed)}edges processed, ${fmt(r.teps)}TEPS` +
      (r.loadMs !== undefined ? `; load ${r.loadMs.toFixed(0)} ms` : '') +
      (r.startMs !== undefined ? `; engine start ${r.startMs.toFixed(0)} ms` : ''),
  );
  if (r.phases !== undefined) {
    const p = r.phases;
    lines.push(`  time: ${p.allocMs.toFixed(1)} ms state allocation, ${p.vertexMapMs.toFixed(1)} ms vertex maps, ${p.stepsMs.toFixed(1)} ms supersteps, ${p.otherMs.toFixed(1)} ms driver and results` + (p.settleMs !== undefined ? ` (of it ${p.settleMs.toFixed(1)} ms copying held GPU state back)` : ''));
  }
  const notes = Object.entries(r.notes ?? {});
  if (notes.length > 0) lines.push(`  notes: ${notes.map(([k, v]) => `${k}: ${v}`).join('; ')}`);
  if (r.steps.length > 0) {
    // The coordinator's own thread between the actors' votes (older reports lack plan and list).
    const sum = (k: 'planMs' | 'foldMs' | 'listMs'): string => r.steps.reduce((a, s) => a + (s[k] ?? 0), 0).toFixed(1);
    lines.push(`  coordinator: ${sum('planMs')} ms planning (switch, lists, tasks), ${sum('foldMs')} ms folding, ${sum('listMs')} ms listing next frontiers`);
  }
  const per = new Map<string, { edges: number; ms: number; tasks: number; stolen: number; stolenEdges: number; disk?: DiskStats; gpu?: Omit<GpuStepStats, 'emulated'> & { emulated: boolean; messages: number; aggregated: number } }>();
  for (const s of r.steps)
    for (const a of s.actors) {
      const t = per.get(a.actor) ?? { edges: 0, ms: 0, tasks: 0, stolen: 0, stolenEdges: 0 };
      t.edges += a.edges;
      t.stolen += a.stolen ?? 0;
      t.stolenEdges += a.stolenEdges ?? 0;
      t.ms += a.computeMs;
      t.tasks += a.tasks;
      if (a.disk !== undefined) {
        const d = (t.disk ??= { batches: 0, pages: 0, bytes: 0, waitMs: 0 });
        for (const k of ['batches', 'pages', 'bytes', 'waitMs'] as const) d[k] += a.disk[k];
      }
      if (a.gpu !== undefined) {
        const g = (t.gpu ??= { emulated: a.gpu.emulated, calls: 0, pages: 0, hits: 0, misses: 0, evictions: 0, pageBytes: 0, stateBytesIn: 0, stateBytesOut: 0, kernelMs: 0, copyMs: 0, peerBytes: 0, messages: 0, aggregated: 0 });
        for (const k of ['calls', 'pages', 'hits', 'misses', 'evictions', 'pageBytes', 'stateBytesIn', 'stateBytesOut', 'kernelMs', 'copyMs'] as const) g[k] += a.gpu[k];
        // Received at the meetings, or sent after the kernels (an exchange): each byte counted once.
        g.peerBytes = (g.peerBytes ?? 0) + (a.gpu.peerBytes ?? 0) + (a.gpu.peerSent ?? 0);
        if (a.gpu.fileBytes !== undefined) {
          g.fileBytes = (g.fileBytes ?? 0) + a.gpu.fileBytes;
          g.bufferHits = (g.bufferHits ?? 0) + (a.gpu.bufferHits ?? 0);
        }
        g.messages += a.messages;
        g.aggregated += a.messagesAggregated;
      }
      per.set(a.actor, t);
    }
  for (const [name, t] of per) {
    lines.push(
      `  ${name}: ${t.tasks} tasks, ${fmt(t.edges)}edges, ${t.ms.toFixed(1)} ms busy` +
        (t.stolen > 0 ? `; stole ${t.stolen} tasks (${fmt(t.stolenEdges)}edges) from other actors` : ''),
    );
    if (t.disk !== undefined) lines.push(`    pages from disk: ${t.disk.pages} read (${compactBytes(t.disk.bytes)}) in ${t.disk.batches} batches, ${t.disk.waitMs.toFixed(1)} ms waiting for reads`);
    const g = t.gpu;
    if (g !== undefined)
      lines.push(
        `    ${g.emulated ? 'EMULATED GPU (host): ' : ''}${g.calls} kernel calls, ${g.misses} pages sent, ${g.hits} cache hits, ${g.evictions} evictions, ` +
          `${compactBytes(g.pageBytes)} of pages + ${compactBytes(g.stateBytesIn + g.stateBytesOut)} of state copied${(g.peerBytes ?? 0) > 0 ? ` + ${compactBytes(g.peerBytes!)} between GPUs` : ''}, kernels ${g.kernelMs.toFixed(1)} ms, ` +
          `outbox ${g.messages} -> ${g.aggregated} messages`,
      );
    if (g?.fileBytes !== undefined) lines.push(`    pages from disk: ${compactBytes(g.fileBytes)} read from the file, ${g.bufferHits} pages loaded from the host buffer`);
  }
  if (r.partition !== undefined) {
    const p = r.partition;
    lines.push(
      `partition ${p.strategy.toUpperCase()}${p.seed !== undefined ? ` seed ${p.seed}` : ''}${p.multiGpu !== undefined ? `, multi-GPU ${p.multiGpu.toUpperCase()}` : ''}: ` +
        p.gpus.map((g) => `${g.actor} owns ${fmt(g.vertices)}vertices (${g.ranges} range${g.ranges === 1 ? '' : 's'}, ${fmt(g.edges)}${p.pages}-edges)`).join(', '),
    );
  }
  if (r.model !== undefined) {
    const m = r.model;
    lines.push(
      `model: ${m.strategy.toUpperCase()}${r.partition?.multiGpu !== undefined ? `-${m.multiGpu.toUpperCase()}` : ''} alpha ${m.alpha.toFixed(3)} (CPU share of edges), beta ${m.beta.toFixed(4)}, ` +
        `predicted ${m.predictedMs.toFixed(1)} ms (x${m.predictedSpeedup.toFixed(2)} vs CPU only)` +
        (m.measuredMs !== undefined ? `, measured ${m.measuredMs.toFixed(1)} ms` : '') +
        ` [${m.rates.sources}]`,
    );
  }
  return lines.join('\n');
}
