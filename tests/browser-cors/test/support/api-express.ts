import { createServer } from 'node:http';
import cors from 'cors';
import express from 'express';
import { sessauthMiddleware } from '@sessauth/express';
import { ALLOWED_HEADERS, listenRecorded, type CorsApi, type CorsApiInput } from './cors-api.js';

/** The README's Express recipe: `cors` with credentials, mounted before the adapter. */
export function expressApi({ auth, spaOrigin }: CorsApiInput): Promise<CorsApi> {
  const app = express();
  app.use(cors({ origin: spaOrigin, credentials: true, allowedHeaders: ALLOWED_HEADERS }));
  app.use(sessauthMiddleware(auth));
  return listenRecorded(createServer(app));
}
