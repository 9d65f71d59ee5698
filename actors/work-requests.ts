/**
 * The thief's side of page stealing, shared by socket and GPU actors: one outstanding `idle`
 * request at a time, settled by the coordinator's `more` frame (or with nothing on stop).
 */
import type { Task } from '../src/wire/frames.js';

export class WorkRequests {
  private wait: ((tasks: Task[]) => void) | undefined;

  /** Sends the idle frame (through `send`) and resolves with the tasks the answer carries. */
  ask(send: () => void): Promise<Task[]> {
    return new Promise((resolve) => {
      this.wait = resolve;
      send();
    });
  }

  answer(tasks: Task[]): void {
    const w = this.wait;
    this.wait = undefined;
    w?.(tasks);
  }
}
