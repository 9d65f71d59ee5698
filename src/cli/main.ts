#!/usr/bin/env node
/**
 * The tessera command line. Every failure the user can fix prints one line (never a stack trace)
 * and exits 1; an internal error prints one line too and exits 2 (TESSERA_DEBUG=1 shows the stack).
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { isTesseraError } from '../errors.js';
import { registerGraphCommands } from './graph-commands.js';
import { registerRunCommands } from './run.js';
import { registerBenchCommand } from './bench-command.js';
import { registerModelCommand } from './model-command.js';
import { installSignalCleanup } from '../tmp-files.js';

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

registerRunCommands(program);
registerGraphCommands(program);
registerBenchCommand(program);
registerModelCommand(program);

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
}
