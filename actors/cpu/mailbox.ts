/**
 * A graph handed to a socket's threads after they started (Engine.prestart): the threads of a pool
 * started before the graph was loaded have no graph in their workerData, only this mailbox's
 * name. A thread that needs the graph posts `need` on a BroadcastChannel of that name; the actor
 * answers with the graph's share once it has one (and again for a thread that starts later, such
 * as piscina's replacement of one that died). One answer serves every thread waiting then.
 */
import { BroadcastChannel } from 'node:worker_threads';
import type { GraphShare } from './share.js';

type Letter = { need: true } | { share: GraphShare };

/** The actor's side: answers threads' requests with the share, once it is set. */
export class GraphMailbox {
  readonly name = `tessera-graph-${process.pid}-${++boxes}`;
  private readonly channel = new BroadcastChannel(this.name);
  private share: GraphShare | undefined;

  constructor() {
    // Unreferenced: a mailbox must not keep the process alive.
    this.channel.unref();
    this.channel.onmessage = (e: unknown) => {
      if ('need' in (e as { data: Letter }).data && this.share !== undefined) this.post();
    };
  }

  /** The graph is here: threads waiting get it now, later ones when they ask. */
  deliver(share: GraphShare): void {
    this.share = share;
    this.post();
  }

  private post(): void {
    this.channel.postMessage({ share: this.share! } satisfies Letter);
  }

  close(): void {
    this.channel.close();
  }
}

let boxes = 0;

/** The thread's side: asks for the graph and resolves with its share when the actor answers. */
export function fetchGraph(name: string): Promise<GraphShare> {
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(name);
    channel.onmessage = (e: unknown) => {
      const letter = (e as { data: Letter }).data;
      if (!('share' in letter)) return;
      channel.close();
      resolve(letter.share);
    };
    channel.postMessage({ need: true } satisfies Letter);
  });
}
