import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { userPortOver, type TestAppExtras, type UserTable } from '@sessauth/conformance';
import type { RateLimitStore, SessionStore } from '@sessauth/core';
import type { CallbackCall } from '../host/engine-setup.js';
import { decodeWire, encodeWire, failureOf } from '../host/wire.js';

/** What one test app keeps in this process for its remote engine to call back. */
export interface AppCallbacks {
  readonly users: UserTable;
  readonly extras: TestAppExtras;
  /** The cell's store as seen from here (each call goes back to the runtime). */
  readonly store: SessionStore;
  readonly handlers: Map<string, (event: unknown) => unknown>;
}

type Method = (...args: unknown[]) => unknown;

/** Answers the remote engine's calls into this process: users, events, and what a test wrapped. */
export class CallbackServer {
  private readonly apps = new Map<string, { callbacks: AppCallbacks; store?: SessionStore }>();
  private server: Server | undefined;
  private base = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const id = request.url?.split('/')[2] ?? '';
        this.answer(id, decodeWire(Buffer.concat(chunks).toString('utf8')) as CallbackCall)
          .then((value) => ({ value }), failureOf)
          .then((answer) => response.writeHead(200, { 'content-type': 'application/json' }).end(encodeWire(answer)));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Registers an app; the URL its engine calls back on. */
  register(callbacks: AppCallbacks): { url: string; forget(): void } {
    const id = randomBytes(6).toString('hex');
    this.apps.set(id, { callbacks });
    return { url: `${this.base}/apps/${id}`, forget: () => this.apps.delete(id) };
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async answer(id: string, call: CallbackCall): Promise<unknown> {
    const app = this.apps.get(id);
    if (app === undefined) throw new Error(`no app ${id}`);
    const { users, extras, handlers } = app.callbacks;
    const [first, second] = call.args;
    switch (call.target) {
      case 'users':
        if (call.method === 'setPasswordHash') return setPasswordHash(users, String(first), String(second));
        // A test's wrapped users port (a lookup that folds spellings) answers for the remote engine too.
        return ((extras.wrapUsers?.(userPortOver(users)) ?? userPortOver(users)) as unknown as Record<string, Method>)[call.method]?.(...call.args);
      case 'store': {
        app.store ??= extras.wrapStore?.(app.callbacks.store) ?? app.callbacks.store;
        return (app.store as unknown as Record<string, Method>)[call.method]?.(...call.args);
      }
      case 'rateLimit':
        return (extras.rateLimitStore as unknown as Record<string, Method> & RateLimitStore)[call.method]?.(...call.args);
      case 'geolocation':
        return extras.geolocation?.(String(first), new AbortController().signal);
      case 'event':
        return handlers.get(String(first))?.(second);
    }
  }
}

/** `POST /me/password`'s storage: the hash the runtime made, and with it a new security stamp. */
function setPasswordHash(users: UserTable, id: string, hash: string): null {
  const user = [users.alice, users.bob].find((candidate) => candidate.id === id);
  if (user === undefined) throw new Error(`no user ${id}`);
  user.passwordHash = hash;
  user.stamp = randomBytes(9).toString('base64url');
  return null;
}
