import {
  createPasswordAuthenticator,
  createSessauth,
  settingsFromEnv,
  type PasswordHasher,
  type RateLimitStore,
  type Sessauth,
  type SessionStore,
} from '@sessauth/core';
import { createFetchHandler, type ConnInfo, type FetchHandlerOptions, type WaitUntil } from '@sessauth/fetch';
import { WebDemoUsers, type WebDemoUser } from './demo-users.js';

export interface WebExampleInput {
  /** JWT_* settings (JWT_SECRET_KEY, JWT_ISSUER and JWT_AUDIENCE at least) and SESSAUTH_DEMO_USERS. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly store: SessionStore;
  readonly rateLimitStore?: RateLimitStore;
  /** The runtime's argon2id: native on Bun, WebAssembly on Deno Deploy and Workers. */
  readonly hasher: PasswordHasher;
  /** How this runtime tells the client address (see `FetchHandlerOptions.getPeerAddress`). */
  readonly getPeerAddress?: FetchHandlerOptions['getPeerAddress'];
}

/** One request in, one response out: what `Bun.serve`, `Deno.serve` and a worker's `fetch` all call. */
export type WebFetch = (request: Request, conn?: ConnInfo, ctx?: WaitUntil) => Promise<Response>;

/**
 * The example app on the fetch handler: the seven endpoints under `/auth/`, `GET /me` and
 * `POST /me/password` behind the guard. The same code on Bun, Deno and Cloudflare Workers.
 */
export async function createWebExample(input: WebExampleInput): Promise<{ auth: Sessauth<WebDemoUser>; fetch: WebFetch }> {
  const users = await WebDemoUsers.seed(input.hasher, input.env.SESSAUTH_DEMO_USERS ?? 'alice:correct-horse-battery');
  // Only the JWT_* names are settings; the rest of the environment is the host's.
  const settings = Object.fromEntries(Object.entries(input.env).filter(([name]) => name.startsWith('JWT_')));
  const auth = await createSessauth<WebDemoUser>({
    options: settingsFromEnv(settings),
    store: input.store,
    users,
    authenticator: createPasswordAuthenticator({ users, hasher: input.hasher }),
    ...(input.rateLimitStore === undefined ? {} : { rateLimitStore: input.rateLimitStore }),
  });
  const sessauth = createFetchHandler(auth, input.getPeerAddress === undefined ? {} : { getPeerAddress: input.getPeerAddress });
  const fetch: WebFetch = async (request, conn, ctx) => {
    const answered = await sessauth.handle(request, conn, ctx);
    if (answered !== null) return answered;
    const { pathname } = new URL(request.url);
    try {
      if (request.method === 'GET' && pathname === '/me') {
        const { user, session } = await sessauth.authenticate(request, ctx);
        return Response.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
      }
      if (request.method === 'POST' && pathname === '/me/password') {
        return await sessauth.changePassword(request, await sessauth.authenticate(request, ctx), users.setPassword, conn, ctx);
      }
    } catch (error) {
      return sessauth.errorResponse(error);
    }
    if (request.method === 'GET' && pathname === '/') return new Response('sessauth example: POST /auth/login/ {"username","password"}\n');
    return Response.json({ error_code: 'not_found', message: 'Not found.' }, { status: 404 });
  };
  return { auth, fetch };
}
