import { connect, type Socket } from 'node:net';
import { delayOf, type FaultDirection, type FaultMode } from './fault-mode.js';

/** One thing to hand on, in order: bytes (maybe the last before a cut), or the end of the stream. */
type Item =
  | { readonly kind: 'data'; readonly chunk: Buffer; readonly thenReset: boolean; readonly at: number }
  | { readonly kind: 'end'; readonly at: number }
  | { readonly kind: 'close'; readonly hadError: boolean; readonly at: number };

/** Bytes counted towards a `cut`, per connection. */
interface CutState {
  armed: boolean;
  remaining: number;
  /** The last bytes seen upstream, so that an `after` text split over two chunks is found. */
  tail: Buffer;
}

/**
 * One proxied connection: the accepted client socket and its socket to the target,
 * with a FIFO per direction so that latency never reorders bytes. A partition
 * (blackhole) pauses both sockets: nothing is read, so nothing is lost or reordered.
 */
export class FaultLink {
  readonly client: Socket;
  readonly server: Socket;
  #mode: FaultMode;
  #cut: CutState = { armed: false, remaining: 0, tail: Buffer.alloc(0) };
  readonly #queues: Record<FaultDirection, Item[]> = { upstream: [], downstream: [] };
  readonly #timers: Record<FaultDirection, ReturnType<typeof setTimeout> | undefined> = {
    upstream: undefined,
    downstream: undefined,
  };
  #closed = false;
  readonly #onCut: () => void;

  constructor(client: Socket, target: { host: string; port: number }, mode: FaultMode, onGone: () => void, onCut: () => void) {
    this.client = client;
    this.server = connect({ host: target.host, port: target.port, allowHalfOpen: true });
    this.#onCut = onCut;
    this.#mode = mode;
    this.client.on('data', (chunk: Buffer) => this.#forward('upstream', chunk));
    this.server.on('data', (chunk: Buffer) => this.#forward('downstream', chunk));
    this.client.on('end', () => this.#enqueue('upstream', { kind: 'end', at: this.#releaseAt('upstream') }));
    this.server.on('end', () => this.#enqueue('downstream', { kind: 'end', at: this.#releaseAt('downstream') }));
    // A socket error is followed by 'close' (hadError): it is reported there.
    this.client.on('error', () => undefined);
    this.server.on('error', () => undefined);
    this.client.on('close', (hadError) => this.#enqueue('upstream', { kind: 'close', hadError, at: this.#releaseAt('upstream') }));
    this.server.on('close', (hadError) => this.#enqueue('downstream', { kind: 'close', hadError, at: this.#releaseAt('downstream') }));
    let gone = 0;
    const oneGone = () => {
      gone += 1;
      if (gone === 2) {
        this.#closed = true;
        for (const direction of ['upstream', 'downstream'] as const) clearTimeout(this.#timers[direction]);
        onGone();
      }
    };
    this.client.once('close', oneGone);
    this.server.once('close', oneGone);
    this.#armCut();
    // Explicitly paused streams stay paused when a 'data' listener is added.
    if (mode.kind === 'blackhole') this.#hold();
  }

  /** The local port of the socket to the target: what the server sees as the client's port. */
  get upstreamPort(): number | undefined {
    return this.server.localPort;
  }

  setMode(mode: FaultMode): void {
    const wasHeld = this.#mode.kind === 'blackhole';
    this.#mode = mode;
    this.#armCut();
    if (mode.kind === 'blackhole') {
      this.#hold();
    } else if (wasHeld) {
      this.client.resume();
      this.server.resume();
      this.#pump('upstream');
      this.#pump('downstream');
    }
  }

  /** Resets both sockets (RST), as a dropped connection does. */
  reset(): void {
    if (this.#closed) return;
    for (const socket of [this.client, this.server]) {
      if (!socket.destroyed) socket.resetAndDestroy();
    }
  }

  #hold(): void {
    this.client.pause();
    this.server.pause();
  }

  #armCut(): void {
    const mode = this.#mode;
    this.#cut = {
      armed: mode.kind === 'cut' && mode.after === undefined,
      remaining: mode.kind === 'cut' ? mode.afterBytes : 0,
      tail: Buffer.alloc(0),
    };
  }

  #releaseAt(direction: FaultDirection): number {
    return Date.now() + delayOf(this.#mode, direction);
  }

  #forward(direction: FaultDirection, chunk: Buffer): void {
    const mode = this.#mode;
    const at = this.#releaseAt(direction);
    if (mode.kind !== 'cut') {
      this.#enqueue(direction, { kind: 'data', chunk, thenReset: false, at });
      return;
    }
    const cut = this.#cut;
    if (!cut.armed) {
      if (direction === 'upstream' && mode.after !== undefined) {
        const seen = Buffer.concat([cut.tail, chunk]);
        const pattern = Buffer.from(mode.after);
        cut.armed = seen.includes(pattern);
        cut.tail = seen.subarray(Math.max(0, seen.length - pattern.length + 1));
      }
      this.#enqueue(direction, { kind: 'data', chunk, thenReset: false, at });
      return;
    }
    if (direction !== mode.direction || chunk.length <= cut.remaining) {
      if (direction === mode.direction) cut.remaining -= chunk.length;
      this.#enqueue(direction, { kind: 'data', chunk, thenReset: false, at });
      return;
    }
    const allowed = chunk.subarray(0, cut.remaining);
    cut.remaining = 0;
    this.#onCut();
    this.#enqueue(direction, { kind: 'data', chunk: allowed, thenReset: true, at });
  }

  #enqueue(direction: FaultDirection, item: Item): void {
    this.#queues[direction].push(item);
    this.#pump(direction);
  }

  /** Hands on every item whose time has come, in order; waits for the next one otherwise. */
  #pump(direction: FaultDirection): void {
    if (this.#mode.kind === 'blackhole' || this.#timers[direction] !== undefined) return;
    const queue = this.#queues[direction];
    const to = direction === 'upstream' ? this.server : this.client;
    for (let head = queue[0]; head !== undefined; head = queue[0]) {
      const wait = head.at - Date.now();
      if (wait > 0) {
        this.#timers[direction] = setTimeout(() => {
          this.#timers[direction] = undefined;
          this.#pump(direction);
        }, wait);
        return;
      }
      queue.shift();
      this.#deliver(to, head);
    }
  }

  #deliver(to: Socket, item: Item): void {
    if (to.destroyed) return;
    if (item.kind === 'end') {
      to.end();
    } else if (item.kind === 'close') {
      // The other side went away: a reset travels on as a reset, a clean close as an end.
      if (item.hadError) to.resetAndDestroy();
      else to.end();
    } else if (item.thenReset) {
      if (item.chunk.length === 0) this.reset();
      else to.write(item.chunk, () => this.reset());
    } else {
      to.write(item.chunk);
    }
  }
}
