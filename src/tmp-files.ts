/**
 * Partial output files. Every atomic writer (writeResult, writeTsr, generateToEdgeList) writes to
 * `FILE.tmp-<pid>` and renames it into place; it calls trackTemp before creating that file and
 * untrackTemp once the file is renamed or removed. The writers' own error paths remove the file;
 * a signal does not reach them, so the command line calls installSignalCleanup once: from then on,
 * SIGINT or SIGTERM while a partial file exists removes every tracked file (synchronously), prints
 * one line on stderr and exits with 128 + the signal number (130, 143).
 *
 * The handlers are attached only while at least one file is tracked: outside of a write the
 * signals keep their usual meaning (the default, or whatever else listens, such as `tessera
 * bench`, which stops its sweep and keeps the finished cells). A library user's application owns
 * its signals: without installSignalCleanup nothing here listens to any signal.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';

const tracked = new Set<string>();
let installed = false;
let listening = false;
let exiting = false;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Records a partial output file (call before creating it). */
export function trackTemp(file: string): void {
  tracked.add(file);
  update();
}

/** Forgets a partial output file (call once it is renamed into place or removed). */
export function untrackTemp(file: string): void {
  tracked.delete(file);
  update();
}

/** The partial output files now tracked (for tests and diagnostics). */
export function trackedTemps(): string[] {
  return [...tracked];
}

/**
 * For a command-line program: on SIGINT / SIGTERM while partial output files exist, remove them
 * and exit with 128 + the signal number. Idempotent.
 */
export function installSignalCleanup(): void {
  installed = true;
  update();
}

/** Removes every tracked file that exists; returns how many were removed. */
export function removeTrackedTemps(): number {
  let n = 0;
  for (const file of tracked) {
    try {
      rmSync(file);
      n++;
    } catch {
      // ENOENT (not created yet, or already renamed into place) or worse: nothing more to do.
    }
  }
  tracked.clear();
  return n;
}

function update(): void {
  const want = installed && tracked.size > 0 && !exiting;
  if (want === listening) return;
  listening = want;
  for (const sig of SIGNALS) {
    if (want) process.on(sig, onSignal);
    else process.off(sig, onSignal);
  }
}

function onSignal(sig: NodeJS.Signals): void {
  if (exiting) return;
  exiting = true;
  const n = removeTrackedTemps();
  const line = `tessera: interrupted; removed ${n} partial output file${n === 1 ? '' : 's'}\n`;
  try {
    // A progress bar may hold the line and have hidden the cursor: clear the line, show the cursor.
    process.stderr.write(process.stderr.isTTY ? `\r\x1b[K\x1b[?25h${line}` : line);
  } catch {
    // stderr is gone: the exit status still tells.
  }
  // process.exit stops worker threads too (build teams, engine workers): nothing keeps us alive.
  process.exit(128 + (os.constants.signals[sig] ?? 0));
}
