import cliProgress from 'cli-progress';
import type { EventEmitter } from 'eventemitter3';
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
