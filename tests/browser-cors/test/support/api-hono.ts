import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { createFetchHandler } from '@sessauth/fetch';
import { honoSessauth } from '@sessauth/fetch/hono';
import { ALLOWED_HEADERS, listenRecorded, type CorsApi, type CorsApiInput } from './cors-api.js';

/** The README's Hono recipe: `hono/cors` with credentials, before the sessauth middleware. */
export function honoApi({ auth, spaOrigin }: CorsApiInput): Promise<CorsApi> {
  const app = new Hono();
  app.use(cors({ origin: spaOrigin, credentials: true, allowHeaders: ALLOWED_HEADERS }));
  app.use(honoSessauth(createFetchHandler(auth), (c) => ({ remoteAddress: getConnInfo(c).remote.address })));
  return listenRecorded(createAdaptorServer({ fetch: app.fetch }) as Server);
}
