import { MemorySessionStore } from '@sessauth/core';
import { createWasmArgon2PasswordHasher } from '@sessauth/core/argon2-wasm';
import { createWebExample } from '@sessauth/example-web';
import argon2 from 'argon2-wasm-edge/wasm/argon2.wasm';
import blake2b from 'argon2-wasm-edge/wasm/blake2b.wasm';
import { durableObjectRateLimitStore, type RateLimitCounter } from './rate-limit-counter.js';

export { RateLimitCounter } from './rate-limit-counter.js';

interface Env {
  readonly RATE_LIMITS: DurableObjectNamespace<RateLimitCounter>;
  readonly [name: string]: unknown;
}

type Example = Awaited<ReturnType<typeof createWebExample>>;
let example: Promise<Example> | undefined;

/**
 * Built on the first request, not at module scope (a worker's global scope may not do I/O or
 * use timers), then kept for the isolate's life: one engine, keys imported once.
 */
function exampleOf(env: Env): Promise<Example> {
  example ??= createWebExample({
    env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
    // One isolate's memory: for trying the example only (see docs/cloudflare-workers.md).
    store: new MemorySessionStore(),
    rateLimitStore: durableObjectRateLimitStore(env.RATE_LIMITS),
    // Workers refuse to compile WebAssembly from bytes: the modules come in compiled, as imports.
    hasher: createWasmArgon2PasswordHasher({ modules: { argon2, blake2b } }),
    // Cloudflare's edge sets CF-Connecting-IP to the client's address and replaces any value
    // a client sent: the one trusted source of the address in a worker (nothing else sees the TCP peer).
    getPeerAddress: (request) => request.headers.get('cf-connecting-ip') ?? undefined,
  });
  return example;
}

export default {
  async fetch(request, env, ctx): Promise<Response> {
    // ctx: event handlers (auth.on) run after the response; ctx.waitUntil keeps them alive.
    return (await exampleOf(env)).fetch(request, undefined, ctx);
  },
} satisfies ExportedHandler<Env>;
