import { connect, createServer, type Server, type Socket } from 'node:net';
import { startFaultProxy, type FaultProxy } from '@sessauth/conformance/faults';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** A target that records what each connection sent and echoes it back. */
interface EchoTarget {
  readonly port: number;
  /** Bytes received per accepted connection, by the client port the target saw. */
  readonly received: Map<number, Buffer>;
  readonly sockets: Set<Socket>;
  close(): Promise<void>;
}

async function startEcho(): Promise<EchoTarget> {
  const received = new Map<number, Buffer>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const port = socket.remotePort ?? -1;
    received.set(port, Buffer.alloc(0));
    socket.on('data', (chunk: Buffer) => {
      received.set(port, Buffer.concat([received.get(port) ?? Buffer.alloc(0), chunk]));
      socket.write(chunk);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    received,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A client socket that collects what it reads and how it ended. */
interface Probe {
  readonly socket: Socket;
  readonly data: () => string;
  /** Resolves when the socket closes, with the error code if it was an error. */
  readonly closed: Promise<string | null>;
  /** Resolves once `text` has been read in full. */
  until(text: string): Promise<void>;
}

function openProbe(port: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    let error: string | null = null;
    const waiters: Array<() => void> = [];
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      for (const wake of waiters.splice(0)) wake();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
      reject(e);
    });
    const closed = new Promise<string | null>((done) => socket.on('close', () => done(error)));
    const until = async (text: string): Promise<void> => {
      while (!data.includes(text)) await new Promise<void>((wake) => waiters.push(wake));
    };
    socket.on('connect', () => resolve({ socket, data: () => data, closed, until }));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fault proxy', () => {
  let target: EchoTarget;
  let proxy: FaultProxy;
  beforeEach(async () => {
    target = await startEcho();
    proxy = await startFaultProxy({ target: { port: target.port } });
  });
  afterEach(async () => {
    await proxy.close();
    await target.close();
  });

  it('passes bytes both ways and reports the port the target sees', async () => {
    const probe = await openProbe(proxy.port);
    probe.socket.write('hello');
    await probe.until('hello');
    const [connection] = proxy.connections();
    expect(connection?.clientPort).toBe(probe.socket.localPort);
    expect(target.received.get(connection?.upstreamPort ?? -1)?.toString()).toBe('hello');
    expect(proxy.stats()).toMatchObject({ accepted: 1, open: 1, reset: 0 });
    probe.socket.destroy();
  });

  it('refuse: new connections get ECONNREFUSED, open ones keep passing, pass listens again', async () => {
    const open = await openProbe(proxy.port);
    await proxy.setMode({ kind: 'refuse' });
    await expect(openProbe(proxy.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    open.socket.write('still here');
    await open.until('still here');
    await proxy.setMode({ kind: 'pass' });
    const again = await openProbe(proxy.port);
    again.socket.write('back');
    await again.until('back');
    open.socket.destroy();
    again.socket.destroy();
  });

  it('resetAll resets every open connection on both sides; new ones work', async () => {
    const a = await openProbe(proxy.port);
    const b = await openProbe(proxy.port);
    a.socket.write('x');
    await a.until('x');
    a.socket.on('error', () => undefined);
    b.socket.on('error', () => undefined);
    expect(proxy.resetAll()).toBe(2);
    expect(await a.closed).toBe('ECONNRESET');
    expect(await b.closed).toBe('ECONNRESET');
    await expect.poll(() => target.sockets.size).toBe(0);
    const c = await openProbe(proxy.port);
    c.socket.write('y');
    await c.until('y');
    expect(proxy.stats().reset).toBe(2);
    c.socket.destroy();
  });

  it('blackhole holds everything on open and new connections; the heal delivers it in order', async () => {
    const open = await openProbe(proxy.port);
    await proxy.setMode({ kind: 'blackhole' });
    open.socket.write('one,');
    open.socket.write('two');
    const late = await openProbe(proxy.port);
    late.socket.write('three');
    // Long enough for the bytes to cross loopback many times over if anything forwarded them.
    await sleep(300);
    const sent = [...target.received.values()].map((bytes) => bytes.toString());
    expect(sent.join('')).toBe('');
    expect(open.data()).toBe('');
    await proxy.setMode({ kind: 'pass' });
    await open.until('one,two');
    await late.until('three');
    expect(open.data()).toBe('one,two');
    open.socket.destroy();
    late.socket.destroy();
  });

  it('latency delays each direction by at least the given time and keeps the order', async () => {
    const probe = await openProbe(proxy.port);
    await proxy.setMode({ kind: 'latency', ms: 150, direction: 'downstream' });
    const started = Date.now();
    for (let i = 0; i < 20; i += 1) probe.socket.write(`${i};`);
    await probe.until('19;');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(probe.data()).toBe(Array.from({ length: 20 }, (_, i) => `${i};`).join(''));
    await proxy.setMode({ kind: 'pass' });
    probe.socket.destroy();
  });

  it('cut upstream after N bytes: the target gets exactly N, then both sides are reset', async () => {
    const probe = await openProbe(proxy.port);
    probe.socket.on('error', () => undefined);
    await proxy.setMode({ kind: 'cut', direction: 'upstream', afterBytes: 4 });
    probe.socket.write('abcdefgh');
    expect(await probe.closed).not.toBeNull();
    await expect.poll(() => target.sockets.size).toBe(0);
    const upstream = [...target.received.values()].map((bytes) => bytes.toString());
    expect(upstream).toEqual(['abcd']);
    expect(proxy.stats().reset).toBe(1);
  });

  it('cut downstream armed by a text: the query reaches the target, its reply is lost', async () => {
    const probe = await openProbe(proxy.port);
    probe.socket.on('error', () => undefined);
    await proxy.setMode({ kind: 'cut', direction: 'downstream', afterBytes: 0, after: 'commit' });
    probe.socket.write('select;');
    await probe.until('select;');
    probe.socket.write('commit;');
    expect(await probe.closed).not.toBeNull();
    expect(probe.data()).toBe('select;');
    expect([...target.received.values()].map((bytes) => bytes.toString())).toEqual(['select;commit;']);
  });

  it('refuses modes it cannot apply', async () => {
    await expect(proxy.setMode({ kind: 'latency', ms: -1 })).rejects.toThrow(TypeError);
    await expect(proxy.setMode({ kind: 'cut', direction: 'upstream', afterBytes: 1.5 })).rejects.toThrow(TypeError);
    await expect(proxy.setMode({ kind: 'cut', direction: 'sideways' as 'upstream', afterBytes: 0 })).rejects.toThrow(TypeError);
    expect(proxy.mode).toEqual({ kind: 'pass' });
  });
});
