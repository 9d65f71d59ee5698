#!/usr/bin/env node
/**
 * The tessera command line. Every failure the user can fix prints one line (never a stack trace)
 * and exits 1; an internal error prints one line too and exits 2 (TESSERA_DEBUG=1 shows the stack).
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { isTesseraError } from '../errors.js';
import { installSignalCleanup } from '../tmp-files.js';
import { inFlight } from './in-flight.js';

type Register = (program: Command) => void;
/**
 * Each command's module, imported only for that command (`tessera run` skipped the bench's,
 * the model's and the converters' ~100 modules); help and unknown commands take all of them.
 * `run` imports the built-in programs for its help only (else once its graph's read has begun).
 */
const modules: Array<{ names: string[]; load: (help: boolean) => Promise<Register> }> = [
  {
    names: ['run', 'demo', 'topology'],
    load: async (help) => {
      const [{ registerRunCommands }, list] = await Promise.all([import('./run.js'), help ? import('../programs/index.js').then((m) => m.programList()) : undefined]);
      return (p) => registerRunCommands(p, list);
    },
  },
  { names: ['generate', 'convert', 'info'], load: async () => (await import('./graph-commands.js')).registerGraphCommands },
  { names: ['bench'], load: async () => (await import('./bench-command.js')).registerBenchCommand },
  { names: ['model'], load: async () => (await import('./model-command.js')).registerModelCommand },
];

const program = new Command();
program
  .name('tessera')
  .description('Graph analytics on every CPU socket and GPU of one machine')
  // dist/src/cli/main.js -> the package's package.json.
  .version((JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version, '-V, --version', 'print the version')
  // Usage errors take the same one-line `tessera: ...` form as every other error (commander's
  // default is an `error: ...` line plus a second hint line). Subcommands inherit this.
  .configureOutput({
    outputError: (str, write) => write(`tessera: ${str.replace(/^error: /, '').trim()} (run with --help for usage)\n`),
  })
  .exitOverride();

// Ctrl-C or SIGTERM during a write removes the partial output file(s) and exits 130 / 143.
installSignalCleanup();

// The command is the first word that is not an option (the top level has only -V and -h).
const args = process.argv.slice(2);
const word = args.find((a) => !a.startsWith('-'));
const mine = modules.filter((m) => word !== undefined && m.names.includes(word));
const asksHelp = args.some((a) => a === '-h' || a === '--help');
const help = mine.length === 0 || asksHelp;
// `tessera --version` needs no command's modules (all of them took ~0.4 s on an H200 host).
const versionOnly = word === undefined && !asksHelp && args.some((a) => a === '-V' || a === '--version');
if (!versionOnly) for (const m of mine.length > 0 ? mine : modules) (await m.load(help))(program);
// A flag given twice is refused: commander keeps the last value silently.
if (!versionOnly) (await import('./options.js')).refuseRepeats(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    // Commander already printed its one-line message (outputError above) or the help/version.
    process.exitCode = e.exitCode;
  } else if (isTesseraError(e)) {
    process.stderr.write(`tessera: ${e.message}\n`);
    process.exitCode = 1;
  } else {
    const err = e instanceof Error ? e : new Error(String(e));
    process.stderr.write(`tessera: internal error: ${err.message} (rerun with TESSERA_DEBUG=1 for details and report it)\n`);
    if (process.env.TESSERA_DEBUG) process.stderr.write(`${err.stack}\n`);
    process.exitCode = 2;
  }
  // A graph still being read for a run that failed: exit once the error line is out.
  if (inFlight.load) process.stderr.write('', () => process.exit());
}
// The command is done, its files written and awaited: exit once standard output and error are
// flushed. Left to end by itself, node frees each of the process's buffers in turn on the way out
// (a graph's buffers, the run's arrays: a munmap each), memory the kernel releases at exit anyway
// (bench/results/h200-2026-11-29-cli-exit).
// A reader that went away (EPIPE) is no error: the stream is done. (Each worker thread's output
// is piped into the process's and holds an error listener there: one more is no leak.)
const flushed = (s: NodeJS.WriteStream): Promise<void> =>
  new Promise((resolve) => {
    if (s.destroyed || !s.writable || s.writableLength === 0) return resolve();
    s.setMaxListeners(s.getMaxListeners() + 1);
    s.once('error', () => resolve());
    s.write('', () => resolve());
  });
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit();
