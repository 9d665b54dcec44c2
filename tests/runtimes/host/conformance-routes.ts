import type { Sessauth, SetPassword } from '@sessauth/core';
import { createFetchHandler, type FetchHandler, type WaitUntil } from '@sessauth/fetch';
import { honoOptionalAuth, honoRequireAuth, honoRequireFresh, honoSessauth } from '@sessauth/fetch/hono';
import { Hono } from 'hono';
import type { MountKind } from './engine-setup.js';
import type { HostUser } from './remote-engine.js';

/** One request with its direct peer, as the runtime hands it over (Bun's requestIP, Deno's remoteAddr...). */
export type PeerHandler = (request: Request, peer: string | undefined, ctx?: WaitUntil) => Promise<Response>;

/** The conformance app (`MountApp` in @sessauth/conformance): the seven endpoints, `/me`, `/me/fresh`, `/me/optional`, `/me/password`. */
export function conformanceRoutes(kind: MountKind, auth: Sessauth<HostUser>, setPassword: SetPassword<HostUser>): PeerHandler {
  const sessauth = createFetchHandler(auth);
  return kind === 'hono' ? honoRoutes(sessauth, setPassword) : fetchRoutes(sessauth, setPassword);
}

/** `FRESH_ROUTE_RULE` of @sessauth/conformance (not imported: this file runs inside Bun, Deno and workerd). */
const FRESH_ROUTE_RULE = { maxAgeSeconds: 300 } as const;

const whoIs = (user: HostUser) => ({ id: user.id, username: user.username });

/** The bare fetch handler, as a `Bun.serve` / `Deno.serve` / worker `fetch` would use it. */
function fetchRoutes(sessauth: FetchHandler<HostUser>, setPassword: SetPassword<HostUser>): PeerHandler {
  return async (request, peer, ctx) => {
    const conn = { remoteAddress: peer };
    const answered = await sessauth.handle(request, conn, ctx);
    if (answered !== null) return answered;
    const path = new URL(request.url).pathname;
    try {
      if (request.method === 'GET' && path === '/me') {
        const { user, session } = await sessauth.authenticate(request, ctx);
        return Response.json({ user: whoIs(user), session: { id: session.id } });
      }
      if (request.method === 'GET' && path === '/me/fresh') {
        const { user, session } = await sessauth.requireFresh(request, FRESH_ROUTE_RULE, ctx);
        return Response.json({ user: whoIs(user), session: { id: session.id } });
      }
      if (request.method === 'GET' && path === '/me/optional') {
        const context = await sessauth.authenticateOptional(request, ctx);
        return Response.json({ user: context === null ? null : whoIs(context.user) });
      }
      if (request.method === 'POST' && path === '/me/password') {
        return sessauth.changePassword(request, await sessauth.authenticate(request, ctx), setPassword, conn, ctx);
      }
    } catch (error) {
      return sessauth.errorResponse(error);
    }
    return new Response('Not Found', { status: 404 });
  };
}

/** The same app in Hono, with the typed guards (`c.var.auth`); the peer travels in Hono's env. */
function honoRoutes(sessauth: FetchHandler<HostUser>, setPassword: SetPassword<HostUser>): PeerHandler {
  type Env = { Bindings: { peer: string | undefined } };
  const connOf = (c: { env: Env['Bindings'] }) => ({ remoteAddress: c.env.peer });
  const app = new Hono<Env>();
  app.use(honoSessauth(sessauth, connOf));
  app.get('/me', honoRequireAuth(sessauth), (c) => c.json({ user: whoIs(c.var.auth.user), session: { id: c.var.auth.session.id } }));
  app.get('/me/fresh', honoRequireFresh(sessauth, FRESH_ROUTE_RULE), (c) =>
    c.json({ user: whoIs(c.var.auth.user), session: { id: c.var.auth.session.id } }),
  );
  app.get('/me/optional', honoOptionalAuth(sessauth), (c) => c.json({ user: c.var.auth === null ? null : whoIs(c.var.auth.user) }));
  app.post('/me/password', honoRequireAuth(sessauth), (c) =>
    sessauth.changePassword(c.req.raw, c.var.auth, setPassword, connOf(c), executionCtxOf(c)),
  );
  return async (request, peer, ctx) => app.fetch(request, { peer }, ctx as Parameters<typeof app.fetch>[2]);
}

/** Hono's `c.executionCtx` where the runtime gave one (workerd); its getter throws elsewhere. */
function executionCtxOf(c: { readonly executionCtx: WaitUntil }): WaitUntil | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
