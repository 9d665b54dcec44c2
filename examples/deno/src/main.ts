import { createWasmArgon2PasswordHasher } from '@sessauth/core/argon2-wasm';
import { createWebExample } from '@sessauth/example-web';
import { storeFromEnv } from './store-from-env.js';

// Deno: the WebAssembly argon2id, which runs on Deno Deploy too (the CLI also loads the
// native @sessauth/core/argon2 with --allow-ffi), and the client address from the socket
// (`info.remoteAddr`), handed over per request as the handler's `conn`.
const env = Deno.env.toObject();
const example = await createWebExample({ env, store: await storeFromEnv(env.SESSAUTH_STORE), hasher: createWasmArgon2PasswordHasher() });

Deno.serve(
  {
    hostname: env.HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? 8000),
    onListen: ({ hostname, port }) => console.log(`sessauth on Deno: listening on http://${hostname}:${port}`),
  },
  (request, info) => example.fetch(request, { remoteAddress: info.remoteAddr.hostname }),
);
