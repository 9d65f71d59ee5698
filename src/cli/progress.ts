import cliProgress from 'cli-progress';
import type { EventEmitter } from 'eventemitter3';
import { compact } from '../format.js';
import type { EngineEvents } from '../engine/coordinator.js';

/**
 * A progress line on stderr (a TTY only) for each run, drawn once the run has taken `delayMs`
 * (the demo: only runs longer than a second) and cleared when it ends.
 */
export function superstepProgress(events: EventEmitter<EngineEvents>, delayMs = 0): () => void {
  if (!process.stderr.isTTY) return () => undefined;
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: '{program} superstep {value} | {mode} | {active} active | {duration_formatted}', hideCursor: true, clearOnComplete: true, fps: 5 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let program = '';
  let t0 = 0;
  events.on('run-start', (i) => {
    program = i.program;
    t0 = performance.now();
    if (delayMs === 0) (bar.start(1, 0, { program, mode: '-', active: 0 }), (started = true));
  });
  events.on('superstep', (s) => {
    if (!started && performance.now() - t0 >= delayMs) (bar.start(s.step + 2, 0, { program, mode: s.mode, active: s.active }), (started = true));
    if (!started) return;
    bar.setTotal(s.step + 2);
    bar.update(s.step + 1, { mode: s.mode, active: s.active });
  });
  events.on('run-end', () => {
    if (started && delayMs > 0) (bar.stop(), (started = false));
  });
  return () => {
    if (started) bar.stop();
  };
}

export interface Bar {
  update(done: number): void;
  stop(): void;
}

/** A cli-progress bar on stderr when it is a TTY; otherwise nothing. */
export function progressBar(label: string, total: number, unit = ''): Bar {
  if (!process.stderr.isTTY || total <= 0) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label.padEnd(10)} [{bar}] {percentage}% | {value}/{total}${unit} | {duration_formatted} (ETA {eta_formatted})`,
      hideCursor: true,
      clearOnComplete: false,
      fps: 5,
      formatValue: (v, _o, type) => (type === 'value' || type === 'total' ? compact(v) : String(v)),
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: (done) => bar.update(Math.min(done, total)),
    stop: () => bar.stop(),
  };
}

/** A one-line phase note on stderr (TTY only) for steps without progress hooks. */
export function note(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`${text}\n`);
}
