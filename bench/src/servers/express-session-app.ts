import type { Server } from 'node:http';
import { RedisStore } from 'connect-redis';
import express from 'express';
import session from 'express-session';
import { Redis } from 'ioredis';
import { REDIS_PREFIX, SECRET, SEEDED_SESSIONS, storeUrls } from '../config.js';
import { listen } from './express-app.js';
import { REFUSED, ROUTE } from './target.js';

declare module 'express-session' {
  interface SessionData {
    userId: string;
  }
}

const PREFIX = `${REDIS_PREFIX}sess:`;

/**
 * express-session + connect-redis with their documented defaults (resave and
 * saveUninitialized off, a 14-day cookie): one GET per request, and the store's
 * touch (an EXPIRE) as it ships. Resolves the server and the session cookie.
 */
export async function listenExpressSession(): Promise<{ server: Server; cookie: string }> {
  const client = new Redis(storeUrls().redis);
  const store = new RedisStore({ client, prefix: PREFIX });
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(
    session({
      store,
      secret: SECRET,
      resave: false,
      saveUninitialized: false,
      cookie: { maxAge: 14 * 24 * 60 * 60 * 1000, httpOnly: true, sameSite: 'lax' },
    }),
  );
  app.post('/login', (req, res) => {
    req.session.userId = 'bench-user-1';
    res.json({ ok: true });
  });
  app.get(ROUTE, (req, res) => {
    if (req.session.userId === undefined) res.status(401).json(REFUSED);
    else res.json({ user: req.session.userId, session: req.sessionID });
  });
  const server = await listen(app);
  await seed(client);
  const { port } = server.address() as { port: number };
  const login = await fetch(`http://127.0.0.1:${port}/login`, { method: 'POST' });
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  if (cookie === '') throw new Error('express-session set no cookie');
  return { server, cookie };
}

/** Filler sessions in connect-redis' own format (a JSON string with a TTL). */
async function seed(client: Redis): Promise<void> {
  const pipeline = client.pipeline();
  const expires = new Date(Date.now() + 14 * 24 * 60 * 60 * 1000).toISOString();
  for (let i = 0; i < SEEDED_SESSIONS; i += 1) {
    const body = { cookie: { originalMaxAge: 1209600000, expires, httpOnly: true, path: '/', sameSite: 'lax' }, userId: `filler-user-${i}` };
    pipeline.set(`${PREFIX}filler-${i}`, JSON.stringify(body), 'EX', 1209600);
  }
  await pipeline.exec();
}
