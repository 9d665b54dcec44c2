import { WorkerEntrypoint } from 'cloudflare:workers';
import { MemorySessionStore } from '@sessauth/core';
import { createWasmArgon2PasswordHasher } from '@sessauth/core/argon2-wasm';
import type { WaitUntil } from '@sessauth/fetch';
import argon2 from 'argon2-wasm-edge/wasm/argon2.wasm';
import blake2b from 'argon2-wasm-edge/wasm/blake2b.wasm';
import { durableObjectRateLimitStore, type RateLimitCounter } from '../../../examples/cloudflare/src/rate-limit-counter.js';
import type { PeerHandler } from './conformance-routes.js';
import { controlApp, type ServeApp } from './control-app.js';
import type { CellStores } from './remote-engine.js';

export { RateLimitCounter } from '../../../examples/cloudflare/src/rate-limit-counter.js';

interface Env {
  /** The ports of the slot sockets, in slot order (JSON). */
  readonly SLOT_PORTS: string;
  /** `memory`, or `memory+durable-object-limits`: the login and refresh counters in Durable Objects. */
  readonly SESSAUTH_CELL_STORE: string;
  readonly RATE_LIMITS: DurableObjectNamespace<RateLimitCounter>;
}

// workerd cannot open a port at run time. Slot 0 is Miniflare's own socket, whose entry worker
// plays Cloudflare's edge (it sets CF-Connecting-IP to the TCP peer); slots 1.. are direct sockets
// to this worker's slot entrypoints, which no edge fronts (no client address). Each test app takes
// the first free slot for as long as it lives; the control endpoint lives under /__control/ on slot 0.
const CONTROL = '/__control';
const slots: Array<PeerHandler | undefined> = [];
let control: ((request: Request) => Promise<Response>) | undefined;

function controlOf(env: Env, edgeOrigin: string): (request: Request) => Promise<Response> {
  const urls = [edgeOrigin, ...(JSON.parse(env.SLOT_PORTS) as number[]).map((port) => `http://127.0.0.1:${port}`)];
  const serve: ServeApp = async (handler) => {
    const slot = urls.findIndex((_, index) => slots[index] === undefined);
    if (slot === -1) throw new Error('every slot is taken');
    slots[slot] = handler;
    return { baseUrl: urls[slot]!, close: async () => void (slots[slot] = undefined) };
  };
  const limits = durableObjectRateLimitStore(env.RATE_LIMITS);
  const cell: CellStores = {
    store: new MemorySessionStore(),
    ...(env.SESSAUTH_CELL_STORE.endsWith('+durable-object-limits')
      ? {
          rateLimitStoreFor: (engine: string) => ({
            hit: (key: string, windowSec: number, now: Date) => limits.hit(`${engine}:${key}`, windowSec, now),
          }),
        }
      : {}),
  };
  const hasher = createWasmArgon2PasswordHasher({ modules: { argon2, blake2b } });
  control ??= controlApp(cell, hasher, serve);
  return control;
}

/** Cloudflare's documented source of the client address: CF-Connecting-IP, set by its edge. */
const slotFetch = (slot: number, request: Request, ctx: WaitUntil): Promise<Response> => {
  const handler = slots[slot];
  if (handler === undefined) return Promise.resolve(new Response('no app in this slot', { status: 503 }));
  return handler(request, request.headers.get('cf-connecting-ip') ?? undefined, ctx);
};

const slotEntry = (slot: number) =>
  class extends WorkerEntrypoint<Env> {
    override fetch(request: Request): Promise<Response> {
      return slotFetch(slot, request, this.ctx);
    }
  };

export const slot1 = slotEntry(1);
export const slot2 = slotEntry(2);
export const slot3 = slotEntry(3);
export const slot4 = slotEntry(4);

export default {
  fetch(request: Request, env: Env, ctx: WaitUntil): Promise<Response> {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(`${CONTROL}/`)) return slotFetch(0, request, ctx);
    url.pathname = url.pathname.slice(CONTROL.length);
    return controlOf(env, url.origin)(new Request(url, request));
  },
};
