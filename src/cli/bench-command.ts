/**
 * `tessera bench`: the scalability sweep (src/bench). Writes bench/results/<timestamp>/ with
 * results.json (every raw sample, machine facts), results.md and the SVG plots.
 * `--replot DIR` redraws results.md and the plots of an earlier (or interrupted) sweep.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import writeFileAtomic from 'write-file-atomic';
import { loadBenchConfig, programLabel } from '../bench/config.js';
import { renderMarkdown } from '../bench/markdown.js';
import { resultsSchema } from '../bench/schema.js';
import { runSweep } from '../bench/sweep.js';
import { TesseraError } from '../errors.js';
import { checkFolder } from './paths.js';

interface BenchFlags {
  config?: string;
  outDir: string;
  peer: Record<string, string>;
  replot?: string;
  progress: boolean;
  programs?: string;
}

function peerOption(v: string, prev: Record<string, string>): Record<string, string> {
  const m = /^(gapbs|graphology)=(.+)$/.exec(v);
  if (!m) throw new InvalidArgumentError(`--peer must be gapbs=/path/to/gapbs, gapbs=off or graphology=off, got '${v}'.`);
  if (m[1] === 'graphology' && m[2] !== 'off') throw new InvalidArgumentError(`graphology comes from npm; the only setting is graphology=off, got '${v}'.`);
  if (m[1]! in prev) throw new InvalidArgumentError(`--peer ${m[1]} is given twice (only one setting can apply); give it once.`);
  return { ...prev, [m[1]!]: m[2]! };
}

/** Redraws results.md and the SVGs of a results.json (e.g. after an interrupted sweep). */
export async function replot(dir: string): Promise<string[]> {
  const file = path.join(dir, 'results.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new TesseraError('no results.json here', { file, key: '--replot', fix: 'give a folder written by tessera bench, e.g. bench/results/2026-01-01T00-00-00Z' });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new TesseraError(`not JSON: ${(e as Error).message}`, { file, fix: 'the file is damaged; cells.jsonl beside it holds every finished cell, one per line' });
  }
  const parsed = resultsSchema.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new TesseraError(`not a tessera-bench/1 result: ${i.path.join('.') || '(top level)'}: ${i.message}`, { file, fix: 'rerun the sweep with this version of tessera' });
  }
  // vega is loaded only when plots are drawn: every other command starts without it.
  const { renderPlots } = await import('../bench/plots.js');
  const plots = await renderPlots(parsed.data, dir);
  await writeFileAtomic(path.join(dir, 'results.md'), renderMarkdown(parsed.data, plots));
  return ['results.md', ...plots.map((p) => p.file)];
}

/** The default sweep shipped in the package (dist/src/cli/ -> bench/config.yaml). */
const DEFAULT_CONFIG = new URL('../../../bench/config.yaml', import.meta.url);

export function registerBenchCommand(program: Command): void {
  program
    .command('bench')
    .description('scalability sweep: graphs x topologies x programs x repetitions, with peers; JSON + Markdown + SVG plots')
    .option('--config <file.yaml>', 'sweep configuration (default: ./bench/config.yaml, else the default sweep shipped with tessera)')
    .option('--out-dir <dir>', 'folder that receives <timestamp>/', 'bench/results')
    .option('--peer <name=path>', 'gapbs=/path/to/gapbs (a GAPBS build folder), gapbs=off, graphology=off; repeatable', peerOption, {})
    .option('--replot <dir>', 'only redraw results.md and the plots of an earlier sweep')
    .option('--no-progress', 'one line per finished cell instead of progress bars')
    .option('--programs <list>', "only these of the config's programs, by label (e.g. pr,bfs:push): a long sweep in parts")
    .action(async (f: BenchFlags) => {
      // A file where the folder should be is refused here, not met as mkdir's ENOTDIR.
      await checkFolder(f.outDir, '--out-dir');
      if (f.replot !== undefined) {
        const files = await replot(f.replot);
        process.stdout.write(`wrote ${files.map((x) => path.join(f.replot!, x)).join(', ')}\n`);
        return;
      }
      const config = await loadBenchConfig(f.config ?? (existsSync('bench/config.yaml') ? 'bench/config.yaml' : fileURLToPath(DEFAULT_CONFIG)));
      if (f.programs !== undefined) {
        const want = f.programs.split(',').map((x) => x.trim()).filter((x) => x.length > 0);
        const labels = config.programs.map(programLabel);
        const unknown = want.filter((w) => !labels.includes(w));
        if (unknown.length > 0)
          throw new TesseraError(`--programs names ${unknown.join(', ')}, which the config does not sweep`, { file: config.file, key: '--programs', fix: `use labels of its programs: ${labels.join(', ')}` });
        config.programs = config.programs.filter((p) => want.includes(programLabel(p)));
      }
      const t0 = performance.now();
      const { dir, results } = await runSweep({
        config,
        outDir: f.outDir,
        peerOverrides: f.peer,
        progress: f.progress && process.stderr.isTTY === true,
        log: (s) => void process.stdout.write(s + '\n'),
      });
      const by = (s: string): number => results.cells.filter((c) => c.status === s).length;
      const rel = path.relative(process.cwd(), dir) || '.';
      process.stdout.write(
        `${results.status === 'complete' ? 'done' : 'interrupted'} in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${by('ok')} cells ok, ${by('skipped')} skipped, ${by('failed')} failed\n` +
          `results: ${rel}/results.json, ${rel}/results.md and the *.svg plots there\n`,
      );
      if (results.status === 'interrupted') process.exitCode = 130;
    });
}
