import type { ServerResponse } from 'node:http';
import { FRESH_ROUTE_RULE, serveOnLoopback, type MountApp } from '@sessauth/conformance';
import { authorizationOf, sessauthListener, toSessauthRequest, writeSessauthResponse } from './plain-node-adapter.js';

function sendJson(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The conformance app on plain node:http: the sessauth listener, then the three host routes. */
export const mountPlainNode: MountApp = async (auth, host) =>
  serveOnLoopback(
    sessauthListener(auth, async (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      try {
        if (req.method === 'GET' && path === '/me') {
          const { user, session } = await auth.authenticate(authorizationOf(req));
          return sendJson(res, { user: { id: user.id, username: user.username }, session: { id: session.id } });
        }
        if (req.method === 'GET' && path === '/me/fresh') {
          const context = await auth.authenticate(authorizationOf(req));
          auth.assertFresh(context, FRESH_ROUTE_RULE);
          const { user, session } = context;
          return sendJson(res, { user: { id: user.id, username: user.username }, session: { id: session.id } });
        }
        if (req.method === 'GET' && path === '/me/optional') {
          const context = await auth.authenticateOptional(authorizationOf(req));
          return sendJson(res, { user: context === null ? null : { id: context.user.id, username: context.user.username } });
        }
        if (req.method === 'POST' && path === '/me/password') {
          const caller = await auth.authenticate(authorizationOf(req));
          return writeSessauthResponse(res, await auth.changePassword(toSessauthRequest(req), caller, host.setPassword));
        }
        res.writeHead(404).end();
      } catch (error) {
        // A guard's refusal: the core's own answer (401 with its error_code, 503 on a store fault).
        writeSessauthResponse(res, auth.errorResponse(error));
      }
    }),
  );
