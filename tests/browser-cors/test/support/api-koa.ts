import { createServer } from 'node:http';
import koaCors from '@koa/cors';
import Koa from 'koa';
import { sessauthMiddleware } from '@sessauth/koa';
import { ALLOWED_HEADERS, listenRecorded, type CorsApi, type CorsApiInput } from './cors-api.js';

/** The README's Koa recipe: `@koa/cors` with credentials, mounted before the adapter. */
export function koaApi({ auth, spaOrigin }: CorsApiInput): Promise<CorsApi> {
  const app = new Koa();
  app.use(koaCors({ origin: spaOrigin, credentials: true, allowHeaders: ALLOWED_HEADERS }));
  app.use(sessauthMiddleware(auth));
  return listenRecorded(createServer(app.callback()));
}
