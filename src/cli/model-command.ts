/**
 * `tessera model --graph G --algo A --topology T`: TOTEM's performance model for a graph, a
 * program and a topology, without running the job: the predicted makespan and speedup over the
 * CPU sockets alone for a sweep of alpha (share of edges on the CPU) with each partition strategy
 * (HIGH / LOW / RAND), and the choice. Rates come from the topology's `model:` section, the
 * calibration cache, or a short CPU calibration run; GPU rates are never guessed: every number
 * the machine did not measure is printed as given.
 */
import type { Command } from 'commander';
import { compact } from '../format.js';
import { InvalidArgumentError } from 'commander';
import { loadGraph } from '../graph/load.js';
import type { Graph } from '../graph/types.js';
import { loadTopology } from '../topology/load.js';
import type { Topology } from '../topology/schema.js';
import { modelSweep, type ModelSweep, type RateValue, type Strategy, type SweepPoint } from '../model/index.js';
import { choiceOption, intOption, sizeOption } from './options.js';
import { findProgram, programList } from '../programs/index.js';
import { checkParamNames, flagOf } from '../engine/define.js';
import { readCache } from '../model/cache.js';
import { checkClashes, checkNotEmpty, graphInputs, type Named } from './paths.js';
import { internalId } from '../engine/output.js';

interface ModelFlags {
  graph: string;
  algo: string;
  topology: string;
  alphaSteps: number;
  partition: Strategy | 'auto';
  multiGpu: 'p' | 's' | 'auto';
  alpha: number | 'auto';
  mode?: 'push' | 'pull';
  passes?: number;
  seed?: number;
  source?: number;
  pageEdges?: number;
  undirected?: boolean;
  vertices?: string;
  cache?: string;
  recalibrate?: boolean;
  streaming: boolean;
  json?: boolean;
  hostMemory?: number;
}

function alphaOption(v: string): number | 'auto' {
  if (v === 'auto') return 'auto';
  const x = Number(v);
  if (v.trim() === '' || !(x >= 0 && x <= 1)) throw new InvalidArgumentError(`--alpha must be a number in [0, 1] or 'auto', got '${v}'.`);
  return x;
}

export function registerModelCommand(program: Command): void {
  program
    .command('model')
    .description('predict makespan and speedup for a sweep of alpha (TOTEM model) without running the job')
    .requiredOption('--graph <file|spec>', 'graph file or generator spec (as for run)')
    .requiredOption('--algo <algo>', programList())
    .option('--topology <file|auto>', 'topology YAML, or auto to detect this machine', 'auto')
    .option('--alpha-steps <n>', 'alpha grid: 0, 1/n, ..., 1', intOption('--alpha-steps', 1), 20)
    .option('--partition <high|low|rand|auto>', 'strategy to sweep (auto: all three, best chosen)', choiceOption('--partition', ['high', 'low', 'rand', 'auto'] as const), 'auto')
    .option('--multi-gpu <p|s|auto>', 'several GPUs: one range each (p), pages dealt round-robin (s), or both predicted (auto)', choiceOption('--multi-gpu', ['p', 's', 'auto'] as const), 'auto')
    .option('--alpha <x|auto>', 'alpha for the choice (auto: the best of the grid)', alphaOption, 'auto')
    .option('--mode <push|pull>', "mode the rates and pages follow (default: the program's main mode)", choiceOption('--mode', ['push', 'pull'] as const))
    .option('--passes <n>', 'full passes over the edges the run makes (default: per program, pr/cdlp 10)', intOption('--passes', 1))
    .option('--seed <n>', 'RAND partition seed', intOption('--seed'), 1)
    .option('--source <id>', 'bfs with --mode push: the source vertex (original id), its top-down levels predicted one by one (refused elsewhere)', intOption('--source'))
    .option('--page-edges <n>', 'target edges per page', intOption('--page-edges', 1))
    .option('--undirected', 'treat every edge as undirected')
    .option('--vertices <file.v>', 'vertex list for an edge list: every vertex, isolated ones included (an edge naming one it lacks is an error)')
    .option('--cache <file>', 'calibration cache file (default: $XDG_CACHE_HOME/tessera/calibration.json)')
    .option('--recalibrate', 'measure the CPU rate again instead of using the cache')
    .option('--no-streaming', 'choose only partitions whose GPU pages all fit in GPU memory')
    .option('--host-memory <size>', "host memory the graph's edge pages may take (as for run): a larger .tsr is predicted read from disk", sizeOption('--host-memory'))
    .option('--json', 'print the sweep as JSON')
    .action(async (f: ModelFlags) => {
      // The parameters as run checks them: a flag the program does not take is refused, not ignored.
      checkParamNames(findProgram(f.algo), { source: f.source }, flagOf);
      if (f.cache !== undefined) {
        // The cache is rewritten after a calibration: never over an input, never over another file.
        checkNotEmpty(f.cache, '--cache');
        const inputs: Named[] = [...(await graphInputs(f.graph)), ...(f.vertices !== undefined ? [['--vertices', f.vertices] as Named] : []), ...(f.topology !== 'auto' ? [['--topology', f.topology] as Named] : [])];
        await checkClashes(inputs, [['--cache', f.cache]], () => 'give --cache a file of its own');
        await readCache(f.cache);
      }
      const topology = await loadTopology(f.topology);
      const { graph } = await loadGraph(f.graph, { undirected: f.undirected, vertices: f.vertices, pageEdges: f.pageEdges, hostMemoryLimit: f.hostMemory ?? topology.hostMemoryLimit });
      const m = await modelSweep(graph, topology, f.algo, {
        steps: f.alphaSteps,
        partition: f.partition,
        multiGpu: f.multiGpu,
        alpha: f.alpha,
        mode: f.mode,
        passes: f.passes,
        seed: f.seed,
        ...(f.source !== undefined ? { source: internalId(graph, f.source) } : {}),
        // The user's --source and --mode: refused where they would change nothing.
        userFlags: true,
        allowStreaming: f.streaming,
        // A real GPU's first calibration runs the program on RMAT graphs up to the graph's size
        // for minutes: on a terminal each graph is named on stderr as it goes (as the runs' progress).
        calibrate: { cacheFile: f.cache, refresh: f.recalibrate, ...(process.stderr.isTTY ? { progress: (line: string) => process.stderr.write(`tessera model: ${line}\n`) } : {}) },
      });
      if (f.json) process.stdout.write(JSON.stringify(sweepJson(m, graph, topology), null, 2) + '\n');
      else process.stdout.write(formatModelSweep(m, graph, topology) + '\n');
    });
}

/** The GPU state the model counts per vertex, and whether calibration measured it or the program's profile declared it. */
function gpuState(m: ModelSweep, graph: Graph): { value: number; source: 'measured' | 'profile' } {
  return { value: (m.params.gpuStateBytes ?? 0) / Math.max(1, graph.numVertices), source: m.rates.gpuStateBytesPerVertex !== undefined ? 'measured' : 'profile' };
}

/** The sweep as plain JSON (the harness reads this). */
export function sweepJson(m: ModelSweep, graph: Graph, topology: Topology): unknown {
  return {
    program: m.program,
    mode: m.mode,
    passes: m.passes,
    levels: m.params.levelPageEdges?.length ?? null,
    graph: { source: graph.source, vertices: graph.numVertices, edges: graph.numEdges, directed: graph.directed },
    topology: { name: topology.name, source: topology.source, sockets: topology.sockets, gpus: topology.gpus },
    rates: { rCpu: m.rates.rCpu, rGpu: m.rates.rGpu ?? null, c: m.rates.c ?? null, linkBytesPerSec: m.rates.linkBytesPerSec ?? null, peerBytesPerSec: m.rates.peerBytesPerSec ?? null, diskBytesPerSec: m.rates.diskBytesPerSec ?? null },
    gpuStateBytesPerVertex: topology.gpus.length > 0 ? gpuState(m, graph) : null,
    disk: m.params.disk ?? null,
    points: m.points,
    chosen: m.chosen ?? null,
    minResidentAlpha: m.minResidentAlpha,
  };
}

const sci = (x: number): string => x.toExponential(2);
const ms = (s: number): string => (s * 1000 >= 100 ? (s * 1000).toFixed(0) : (s * 1000).toFixed(2));
const mib = (b: number): string => `${(b / 1024 ** 2).toFixed(1)} MiB`;
const human = compact;

function rateLine(label: string, v: RateValue, unit: string): string {
  const tag = v.source === 'measured' || v.source === 'cache' ? '' : 'ASSUMED: ';
  return `  ${label.padEnd(5)} ${sci(v.value).padStart(9)} ${unit.padEnd(26)} ${tag}${v.note}`;
}

function cell(p: SweepPoint | undefined): string {
  if (p === undefined) return ''.padStart(24);
  if (!p.feasible) return 'does not fit'.padStart(24);
  const flag = p.streamedPages > 0 ? '*' : ' ';
  return `${ms(p.prediction.makespanS).padStart(9)}${flag} ${p.prediction.speedup.toFixed(2).padStart(5)}x ${p.prediction.beta.toFixed(3).padStart(6)}`;
}

/** The terminal report of `tessera model`. */
export function formatModelSweep(m: ModelSweep, graph: Graph, topology: Topology): string {
  const L: string[] = [];
  const orient = m.mode === 'push' ? 'out' : 'in';
  L.push(
    `model: ${m.program} (${m.mode}, ${m.passes} pass${m.passes === 1 ? '' : 'es'} over the edges) on ${graph.source}: ` +
      `${human(graph.numVertices)} vertices, ${human(graph.numEdges)} edges, ${graph[orient].pages.length} ${orient}-pages`,
  );
  const levels = m.params.levelPageEdges?.length;
  if (levels !== undefined) L.push(`top-down BFS from the source: ${levels} levels, each waiting for its slowest element (TOTEM Eq. 2 per level)`);
  const els = m.params.elements
    .map((e) => {
      if (e.kind === 'cpu') return `${e.name} ${e.threads}t`;
      const g = topology.gpus.find((x) => `gpu${x.device}` === e.name);
      return `${e.name}${g?.emulated ? ' (emulated)' : ''} ${e.memoryBytes !== undefined ? mib(e.memoryBytes) : 'memory unlimited'}`;
    })
    .join(', ');
  L.push(`topology ${topology.name} (${topology.source}): ${els}`);
  L.push('rates:');
  L.push(rateLine('rCpu', m.rates.rCpu, 'edges/s per CPU thread'));
  if (m.rates.rGpu) L.push(rateLine('rGpu', m.rates.rGpu, 'edges/s per GPU'));
  if (m.rates.c) L.push(rateLine('c', m.rates.c, `messages/s per link (${m.params.messageBytes} B)`));
  if (m.rates.linkBytesPerSec) L.push(rateLine('link', m.rates.linkBytesPerSec, 'bytes/s per link (pages)'));
  if (m.rates.peerBytesPerSec) L.push(rateLine('peer', m.rates.peerBytesPerSec, 'bytes/s GPU to GPU (messages between GPUs)'));
  if (m.rates.diskBytesPerSec) L.push(rateLine('disk', m.rates.diskBytesPerSec, 'bytes/s read from disk'));
  const disk = m.params.disk;
  if (disk !== undefined)
    L.push(
      `  pages from disk: ${mib(disk.firstPassBytes)} the first pass, ${mib(disk.passBytes)} each later one on the sockets alone (the arenas keep the rest)` +
        (topology.gpus.length > 0 ? '; with GPUs the limit is shared by the page bytes each actor owns, a GPU\'s part its host buffer' : ''),
    );
  else if (graph.out.stored !== undefined) L.push('  pages from disk: not predicted (the disk is measured with the native addon, which did not load)');
  const once = m.params;
  const gpuOnce =
    topology.gpus.length === 0
      ? ''
      : `, GPU start ${once.gpuStartS !== undefined ? `${ms(once.gpuStartS)} ms` : 'state bytes / link'}, ` +
        `page copy ${once.pageLoadBytesPerSec !== undefined ? `${(once.pageLoadBytesPerSec / 1e9).toFixed(1)} GB/s` : 'at link rate'}`;
  L.push(`  one-time: setup ${ms(once.setupS ?? 0)} ms per run, CPU start ${ms(once.cpuStartS ?? 0)} ms${gpuOnce}`);
  // What decides how many pages fit beside the state on a capped GPU, and so what streams.
  if (topology.gpus.length > 0) {
    const st = gpuState(m, graph);
    L.push(
      `  GPU state ${st.value.toFixed(1)} B a vertex ` +
        (st.source === 'measured' ? '(what the GPU held in the calibration runs)' : `(ASSUMED: ${m.program}'s profile.stateBytesPerVertex; a GPU calibration measures it)`),
    );
  }
  const first = m.points[0];
  if (first) L.push(`CPU sockets alone: ${ms(first.prediction.cpuOnlyS)} ms predicted`);

  if (topology.gpus.length === 0) {
    L.push('no GPUs: alpha is 1; the sockets share the edges (tasks spread by threads)');
  } else {
    const strategies = [...new Set(m.points.map((p) => p.strategy))];
    const modes = [...new Set(m.points.map((p) => p.multiGpu))];
    // Several GPUs sharing their side two ways: a column per strategy and way (HIGH-P, HIGH-S, ...).
    const cols = modes.flatMap((mg) => strategies.map((s) => ({ s, mg, label: modes.length > 1 || topology.gpus.length > 1 ? `${s.toUpperCase()}-${mg.toUpperCase()}` : s.toUpperCase() })));
    const alphas = [...new Set(m.points.map((p) => p.alphaRequested))].sort((a, b) => b - a);
    L.push('');
    L.push(`alpha ` + cols.map((c) => `| ${`${c.label} ms`.padStart(10)} ${'x'.padStart(6)} ${'beta'.padStart(6)} `).join(''));
    for (const a of alphas) {
      const row = cols.map((c) => `| ${cell(m.points.find((p) => p.strategy === c.s && p.multiGpu === c.mg && p.alphaRequested === a))} `);
      L.push(`${a.toFixed(3)} ${row.join('')}`);
    }
    L.push('(ms: predicted makespan; * = some GPU pages streamed every pass; beta after aggregation)');
    if (topology.gpus.length > 1) L.push('(-P: each GPU owns one range of about equal edges; -S: the GPU side\'s pages dealt round-robin, each owned range charged per pass)');
    for (const s of strategies) {
      const a = m.minResidentAlpha[s];
      L.push(`  ${s.toUpperCase()}: ${a === undefined ? 'GPU pages never all fit' : `all GPU pages resident from alpha ${a.toFixed(3)}`}`);
    }
  }
  const c = m.chosen;
  L.push('');
  if (c === undefined) {
    L.push('chosen: none — no partition fits the GPU memory with the options given (try allowing streaming or a larger memoryLimit)');
  } else {
    const p = c.prediction;
    if (topology.gpus.length === 0) L.push(`prediction: ${ms(p.makespanS)} ms on the CPU sockets`);
    else
      L.push(
        `chosen: ${c.strategy.toUpperCase()}${topology.gpus.length > 1 ? `, multi-GPU ${c.multiGpu.toUpperCase()}` : ''}, alpha ${c.alphaRequested.toFixed(3)} (${p.alpha.toFixed(3)} as cut into pages): ` +
          `${ms(p.makespanS)} ms predicted, ${p.speedup.toFixed(2)}x over the CPU sockets alone`,
      );
    if (topology.gpus.length > 0)
      L.push(
        `  beta ${p.beta.toFixed(4)} after aggregation (${c.betaRaw.toFixed(4)} before); setup ${ms(p.setupS)} ms and start ${ms(p.loadS)} ms once, ` +
          `then per pass compute ${ms(p.computeS)} ms + communication ${ms(p.commS)} ms`,
      );
    // The sockets are one host partition (model.ts): one line for them, one per GPU.
    const cpus = p.elements.filter((e) => e.kind === 'cpu');
    const cpuEdges = cpus.reduce((a, e) => a + e.edges, 0);
    const names = m.params.elements.filter((e) => e.kind === 'cpu').map((e) => `${e.name} ${e.threads}t`);
    const reads = (cpus[0]?.streamS ?? 0) > 0 ? `, disk reads ${ms(cpus[0]!.streamS)} ms (overlapped)` : '';
    L.push(`  ${'CPU'.padEnd(8)} ${human(cpuEdges).padStart(8)} edges  compute ${ms(cpus[0]?.computeS ?? 0)} ms per pass${reads} (${names.join(' + ')})`);
    for (let i = 0; i < p.elements.length; i++) {
      const e = p.elements[i]!;
      if (e.kind !== 'gpu') continue;
      const part = c.parts[i]!;
      L.push(
        `  ${e.name.padEnd(8)} ${human(e.edges).padStart(8)} edges  compute ${ms(e.computeS)} ms, transfer ${ms(e.transferS)} ms (${human(e.linkMessages)} messages) per pass; ` +
          `${part.residentPages} pages resident (load ${ms(e.loadS)} ms once), ${part.streamedPages} streamed (${ms(e.streamS)} ms per pass)`,
      );
    }
    L.push(`  bottleneck: ${p.bottleneck.startsWith('socket') ? 'CPU' : p.bottleneck}`);
  }
  return L.join('\n');
}
