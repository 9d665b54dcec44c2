// One variant as its own process: `server.ts <variant id>`. Prints one line
// `READY {"port":…,"headers":{…}}` when it listens, and exits on SIGTERM.
import type { Server } from 'node:http';
import { BenchUsers, createBenchAuth, logIn } from '../bench-auth.js';
import { ACCESS_TOKEN_SECONDS, BENCH_USER, SEEDED_SESSIONS } from '../config.js';
import { openStore } from '../stores/open-store.js';
import { HAND_SESSION_ID, seedSessions } from '../stores/seed.js';
import { parseVariant, type Framework, type Variant } from '../variants.js';
import { listenExpress } from './express-app.js';
import { listenFastify } from './fastify-app.js';
import { createHandGuard } from './hand-guards.js';
import { listenHono } from './hono-app.js';
import { createJoseVerifier, mintAccessToken } from './jose-verifier.js';
import { listenKoa } from './koa-app.js';
import type { Target } from './target.js';

interface Started {
  readonly server: Server;
  readonly headers: Record<string, string>;
  close(): Promise<void>;
}

const LISTEN: Record<Framework, (target: Target) => Promise<Server>> = {
  express: listenExpress,
  fastify: listenFastify,
  koa: listenKoa,
  hono: listenHono,
};

async function start(variant: Variant): Promise<Started> {
  const { route, framework } = variant;
  const listen = LISTEN[framework];
  const none = async () => {};
  switch (route.kind) {
    case 'bare':
      return { server: await listen({ kind: 'bare' }), headers: {}, close: none };
    case 'jose': {
      const token = await mintAccessToken(BENCH_USER.id, HAND_SESSION_ID, ACCESS_TOKEN_SECONDS);
      return { server: await listen({ kind: 'verify', verify: await createJoseVerifier() }), headers: bearer(token), close: none };
    }
    case 'hand': {
      const guard = await createHandGuard(route.store, await createJoseVerifier());
      const token = await mintAccessToken(BENCH_USER.id, HAND_SESSION_ID, ACCESS_TOKEN_SECONDS);
      return { server: await listen({ kind: 'verify', verify: guard.verify }), headers: bearer(token), close: () => guard.close() };
    }
    case 'sessauth':
    case 'sessauth-uncoalesced': {
      const store = await openStore(route.store);
      // The persistent stores were seeded once by the runner; the memory store lives in this process.
      if (route.store === 'memory') await seedSessions(store.sessions, SEEDED_SESSIONS);
      const users = await BenchUsers.create([BENCH_USER]);
      const auth = await createBenchAuth(store.sessions, store.rateLimits, users, { coalesceSessionReads: route.kind === 'sessauth' });
      const { accessToken } = await logIn(auth, BENCH_USER.username, BENCH_USER.password);
      return { server: await listen({ kind: 'sessauth', auth }), headers: bearer(accessToken), close: () => store.close() };
    }
    case 'better-auth': {
      // Peers load only in their own process.
      const { listenBetterAuth } = await import('./better-auth-app.js');
      const { server, cookie } = await listenBetterAuth(route.store);
      return { server, headers: { cookie }, close: none };
    }
    case 'express-session': {
      const { listenExpressSession } = await import('./express-session-app.js');
      const { server, cookie } = await listenExpressSession();
      return { server, headers: { cookie }, close: none };
    }
  }
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

const variant = parseVariant(process.argv[2] ?? '');
const started = await start(variant);
const { port } = started.server.address() as { port: number };
process.stdout.write(`READY ${JSON.stringify({ port, headers: started.headers })}\n`);
process.once('SIGTERM', () => {
  started.server.closeAllConnections();
  started.server.close();
  void started.close().finally(() => process.exit(0));
});
