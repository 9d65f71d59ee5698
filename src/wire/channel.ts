/**
 * An in-process link carrying encoded frames. Frames are always msgpack bytes; buffers that the
 * two ends share (SharedArrayBuffers) ride in a side table and are named in frames by index.
 * A cross-process link would replace the side table by shared memory segments or copies.
 */
import { EventEmitter } from 'eventemitter3';
import { decodeFrame, encodeFrame, type Frame } from './frames.js';

export interface Envelope {
  bytes: Uint8Array;
  shared: SharedArrayBuffer[];
}

export class Channel<Out extends Frame, In extends Frame> {
  private readonly events = new EventEmitter<{ frame: [In, SharedArrayBuffer[]] }>();
  private peer: Channel<In, Out> | undefined;
  /** Bytes sent through this end, for the run report. */
  bytesSent = 0;

  static pair<A extends Frame, B extends Frame>(): [Channel<A, B>, Channel<B, A>] {
    const a = new Channel<A, B>();
    const b = new Channel<B, A>();
    a.peer = b;
    b.peer = a;
    return [a, b];
  }

  send(frame: Out, shared: SharedArrayBuffer[] = []): void {
    const bytes = encodeFrame(frame);
    this.bytesSent += bytes.byteLength;
    const peer = this.peer!;
    // Deliver on a microtask so sender and receiver never run re-entrantly.
    queueMicrotask(() => peer.receive({ bytes, shared }));
  }

  on(fn: (frame: In, shared: SharedArrayBuffer[]) => void): void {
    this.events.on('frame', fn);
  }

  private receive(env: Envelope): void {
    this.events.emit('frame', decodeFrame<In>(env.bytes), env.shared);
  }
}
