// An open-loop load generator with a fixed arrival rate, for latency at a given offered load.
// wrk (and any closed-loop client) sends a connection's next request only once the last one
// is answered: when the server stalls, the client stops sending, so the requests a real user
// would have sent during the stall are never timed (coordinated omission). Here request i is
// due at start + i / rate whatever happened before; its latency runs from that due time, so
// time spent waiting for a free connection (the server's queue, seen from outside) counts.
import { connect, type Socket } from 'node:net';
import { type LoadResult, type LoadSpec, percentileOf } from './load-result.js';

export interface PacedSpec extends LoadSpec {
  /** Requests per second, evenly spaced. */
  readonly ratePerSecond: number;
  /** How long to wait for answers after the last due request before counting the rest as unanswered. */
  readonly drainSeconds?: number;
}

/** The pacer's wake-up period: Node's timers go no finer (so a latency holds up to 1 ms of pacing). */
const TICK_MS = 1;

/** One keep-alive HTTP/1.1 connection with at most one request in flight (no pipelining, like a browser). */
class Connection {
  #buffer: Buffer = Buffer.alloc(0);
  #due = 0;
  busy = false;
  /** The server closed it (or it failed): it takes no more requests. */
  closed = false;

  /** When the request in flight was due. */
  get due(): number {
    return this.#due;
  }

  constructor(
    readonly socket: Socket,
    private readonly done: (connection: Connection, due: number, status: number) => void,
  ) {
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
  }

  send(request: Buffer, due: number): void {
    this.busy = true;
    this.#due = due;
    this.socket.write(request);
  }

  #onData(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const length = completeResponseLength(this.#buffer);
    if (length === undefined) return;
    const status = Number(this.#buffer.toString('latin1', 9, 12));
    this.#buffer = this.#buffer.subarray(length);
    this.busy = false;
    this.done(this, this.#due, status);
  }
}

/** The byte length of the first complete response in `buffer`, or undefined while it is incomplete. */
function completeResponseLength(buffer: Buffer): number | undefined {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const head = buffer.toString('latin1', 0, headEnd).toLowerCase();
  const contentLength = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (contentLength !== null) {
    const total = headEnd + 4 + Number(contentLength[1]);
    return buffer.length >= total ? total : undefined;
  }
  if (/\r\ntransfer-encoding:[^\r]*chunked/.test(head)) {
    const end = buffer.indexOf('\r\n0\r\n\r\n', headEnd);
    return end < 0 ? undefined : end + 7;
  }
  return headEnd + 4;
}

function openConnection(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, noDelay: true });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * `ratePerSecond` requests per second for `durationSeconds` over `connections` keep-alive
 * connections; a due request with every connection busy waits (client-side) for the next free
 * one, and that wait is in its latency. Percentiles are over every due request: those still
 * unanswered after the drain are counted at the time they had waited (a lower bound).
 */
export async function runPaced(spec: PacedSpec): Promise<LoadResult> {
  const url = new URL(spec.url);
  const host = url.hostname;
  const port = Number(url.port || 80);
  const head = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(spec.headers).map(([k, v]) => `${k}: ${v}`)];
  const request = Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1');
  const total = Math.max(1, Math.round(spec.ratePerSecond * spec.durationSeconds));
  const latencies = new Float64Array(total);
  let answered = 0;
  let failures = 0;
  const waiting: number[] = [];
  let waitingHead = 0;
  const idle: Connection[] = [];
  let allAnswered: (() => void) | undefined;

  const onDone = (connection: Connection, due: number, status: number) => {
    latencies[answered] = performance.now() - due;
    answered += 1;
    if (status < 200 || status >= 300) failures += 1;
    if (waitingHead < waiting.length) connection.send(request, waiting[waitingHead++]!);
    else idle.push(connection);
    if (answered === total) allAnswered?.();
  };
  /** The connection idle longest: round robin, so none sits idle past a server's keep-alive timeout (Node's: 5 s). */
  const takeIdle = (): Connection | undefined => {
    let connection = idle.shift();
    while (connection?.closed === true) connection = idle.shift();
    return connection;
  };
  const sockets = await Promise.all(Array.from({ length: spec.connections }, () => openConnection(host, port)));
  const connections = sockets.map((socket) => new Connection(socket, onDone));
  let finished = false;
  for (const connection of connections) {
    connection.socket.on('error', () => {}); // 'close' follows and counts it
    // A connection the server closes mid-run is a failure; its request in flight stays unanswered.
    connection.socket.on('close', () => {
      connection.closed = true;
      if (!finished) failures += 1;
    });
  }
  idle.push(...connections);

  const interval = 1000 / spec.ratePerSecond;
  const start = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        const due = start + next * interval;
        next += 1;
        const connection = takeIdle();
        if (connection !== undefined) connection.send(request, due);
        else waiting.push(due);
      }
      if (next < total) setTimeout(tick, TICK_MS);
      else resolve();
    };
    tick();
  });
  if (answered < total) {
    await new Promise<void>((resolve) => {
      allAnswered = resolve;
      setTimeout(resolve, (spec.drainSeconds ?? 2) * 1000);
    });
  }
  const end = performance.now();
  const completed = answered;
  // The requests never answered: in flight or still waiting for a connection, each at its wait so far.
  const pendingDues = [...connections.filter((c) => c.busy).map((c) => c.due), ...waiting.slice(waitingHead)];
  let filled = completed;
  for (const due of pendingDues) latencies[filled++] = end - due;
  finished = true;
  for (const socket of sockets) socket.destroy();
  const sorted = latencies.subarray(0, filled).sort();
  return {
    requestsPerSecond: completed / ((end - start) / 1000),
    requests: completed,
    latencyP50Ms: percentileOf(sorted, 0.5),
    latencyP99Ms: percentileOf(sorted, 0.99),
    latencyP999Ms: percentileOf(sorted, 0.999),
    failures,
    offeredPerSecond: spec.ratePerSecond,
    unanswered: total - completed,
  };
}
