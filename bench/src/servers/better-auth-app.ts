import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Server } from 'node:http';
import Database from 'better-sqlite3';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { fromNodeHeaders } from 'better-auth/node';
import express from 'express';
import pg from 'pg';
import { POOL_SIZE, SECRET, SEEDED_SESSIONS, storeUrls } from '../config.js';
import { listen } from './express-app.js';
import { REFUSED, ROUTE } from './target.js';

export const BETTER_AUTH_SCHEMA = 'bench16_better_auth';

/**
 * better-auth's `getSession` behind the same Express 5 route, with its defaults
 * (session in the database, no cookie cache), on SQLite or PostgreSQL. Its tables
 * live in their own file / schema. Resolves the server and the cookie to send.
 */
export async function listenBetterAuth(store: 'sqlite' | 'postgres'): Promise<{ server: Server; cookie: string }> {
  const urls = storeUrls();
  let database: Database.Database | pg.Pool;
  if (store === 'sqlite') {
    const path = `${dirname(urls.sqlite)}/better-auth.db`;
    mkdirSync(dirname(path), { recursive: true });
    database = new Database(path);
    database.pragma('journal_mode = WAL');
  } else {
    const setup = new pg.Client({ connectionString: urls.postgres });
    await setup.connect();
    await setup.query(`create schema if not exists ${BETTER_AUTH_SCHEMA}`);
    await setup.end();
    database = new pg.Pool({ connectionString: urls.postgres, max: POOL_SIZE, options: `-c search_path=${BETTER_AUTH_SCHEMA}` });
  }
  const options: BetterAuthOptions = {
    database,
    secret: SECRET,
    baseURL: 'http://127.0.0.1',
    emailAndPassword: { enabled: true },
    telemetry: { enabled: false },
    logger: { disabled: true },
  };
  const auth = betterAuth(options);
  await (await getMigrations(options)).runMigrations();
  const cookie = await signUpAndSeed(auth);

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.get(ROUTE, (req, res) => {
    auth.api.getSession({ headers: fromNodeHeaders(req.headers) }).then(
      (found) => {
        if (found === null) res.status(401).json(REFUSED);
        else res.json({ user: found.user.id, session: found.session.id });
      },
      () => res.status(500).end(),
    );
  });
  return { server: await listen(app), cookie };
}

type BetterAuth = ReturnType<typeof betterAuth<BetterAuthOptions>>;

/** A fresh user signs up (its session cookie is what the load generator sends); more sessions fill the table. */
async function signUpAndSeed(auth: BetterAuth): Promise<string> {
  const email = `bench-${process.pid}-${Date.now()}@bench.local`;
  const response = await auth.api.signUpEmail({ body: { email, password: 'bench-password-1', name: 'bench' }, asResponse: true });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  if (response.status !== 200 || cookie === '') throw new Error(`better-auth sign-up answered ${response.status}`);
  const { user } = (await response.json()) as { user: { id: string } };
  const context = await auth.$context;
  const existing = await context.adapter.count({ model: 'session' });
  for (let i = existing; i < SEEDED_SESSIONS; i += 64) {
    await Promise.all(Array.from({ length: Math.min(64, SEEDED_SESSIONS - i) }, () => context.internalAdapter.createSession(user.id)));
  }
  return cookie;
}
