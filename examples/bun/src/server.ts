import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { createWebExample } from '@sessauth/example-web';
import { storeFromEnv } from './store-from-env.js';

// Bun: the native argon2id (@node-rs/argon2 loads on Bun as on Node), and the client address
// from the socket (`server.requestIP`), never from a header a client can write.
let server: ReturnType<typeof Bun.serve> | undefined;
const example = await createWebExample({
  env: Bun.env,
  store: await storeFromEnv(Bun.env.SESSAUTH_STORE),
  hasher: argon2PasswordHasher,
  getPeerAddress: (request) => server?.requestIP(request)?.address,
});

server = Bun.serve({
  hostname: Bun.env.HOST ?? '127.0.0.1',
  port: Number(Bun.env.PORT ?? 3000),
  fetch: (request) => example.fetch(request),
});
console.log(`sessauth on Bun: listening on http://${server.hostname}:${server.port}`);
