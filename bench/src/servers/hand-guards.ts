import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { HAND_REDIS_PREFIX, POOL_SIZE, SEEDED_SESSIONS, SESSION_TABLE, storeUrls, type StoreName } from '../config.js';
import { HAND_SESSION_ID } from '../stores/seed.js';
import type { Identity, TokenVerifier } from './jose-verifier.js';

/** The columns a guard needs to decide "active and owned by the token's user". */
interface SessionFacts {
  readonly userId: string;
  readonly expiresAt: number;
  readonly revoked: boolean;
}

type ReadSession = (id: string) => Promise<SessionFacts | null>;

export interface HandGuard {
  readonly verify: TokenVerifier;
  close(): Promise<void>;
}

/**
 * "jose + one store read", written by hand as a careful developer would: the
 * verified token, then one read of the session by id, decided in memory. No
 * security stamp, no touch, no error codes: the floor a session-backed guard can reach.
 */
export async function createHandGuard(store: StoreName, jose: TokenVerifier): Promise<HandGuard> {
  const { read, close } = await openReader(store);
  return {
    verify: async (authorization): Promise<Identity | null> => {
      const identity = await jose(authorization);
      if (identity === null) return null;
      const facts = await read(identity.session);
      if (facts === null || facts.revoked || facts.userId !== identity.user || facts.expiresAt <= Date.now()) return null;
      return identity;
    },
    close,
  };
}

const SELECT = `select user_id, expires_at, expired_at from ${SESSION_TABLE} where id = `;

interface Row {
  user_id: string;
  expires_at: number | string;
  expired_at: number | string | null;
}

const facts = (row: Row | undefined): SessionFacts | null =>
  row === undefined ? null : { userId: row.user_id, expiresAt: Number(row.expires_at), revoked: row.expired_at !== null };

async function openReader(store: StoreName): Promise<{ read: ReadSession; close(): Promise<void> }> {
  const urls = storeUrls();
  switch (store) {
    case 'memory': {
      const sessions = new Map<string, SessionFacts>();
      const expiresAt = Date.now() + 24 * 60 * 60 * 1000;
      for (let i = 0; i < SEEDED_SESSIONS; i += 1) sessions.set(`filler-${i}`, { userId: `filler-user-${i}`, expiresAt, revoked: false });
      sessions.set(HAND_SESSION_ID, { userId: 'bench-user-1', expiresAt, revoked: false });
      return { read: async (id) => sessions.get(id) ?? null, close: async () => {} };
    }
    case 'sqlite': {
      const db = new Database(urls.sqlite, { readonly: true });
      const statement = db.prepare<[string], Row>(`${SELECT}?`);
      return { read: async (id) => facts(statement.get(id)), close: async () => void db.close() };
    }
    case 'postgres': {
      const pool = new pg.Pool({ connectionString: urls.postgres, max: POOL_SIZE });
      const read: ReadSession = async (id) =>
        facts((await pool.query<Row>({ name: 'bench16_hand_read', text: `${SELECT}$1`, values: [id] })).rows[0]);
      return { read, close: () => pool.end() };
    }
    case 'mariadb': {
      const pool = mysql.createPool({ uri: urls.mariadb, connectionLimit: POOL_SIZE });
      const read: ReadSession = async (id) => facts((await pool.execute<(Row & mysql.RowDataPacket)[]>(`${SELECT}?`, [id]))[0][0]);
      return { read, close: () => pool.end() };
    }
    case 'redis': {
      const client = new Redis(urls.redis);
      const read: ReadSession = async (id) => {
        const json = await client.get(`${HAND_REDIS_PREFIX}${id}`);
        return json === null ? null : (JSON.parse(json) as SessionFacts);
      };
      return { read, close: async () => void client.disconnect() };
    }
  }
}

/** The hand-written Redis guard's data: one JSON string per seeded session (the runner writes it once). */
export async function seedHandRedis(url: string): Promise<void> {
  const client = new Redis(url);
  const expiresAt = Date.now() + 24 * 60 * 60 * 1000;
  const pipeline = client.pipeline();
  for (let i = 0; i < SEEDED_SESSIONS; i += 1) {
    pipeline.set(`${HAND_REDIS_PREFIX}filler-${i}`, JSON.stringify({ userId: `filler-user-${i}`, expiresAt, revoked: false }));
  }
  pipeline.set(`${HAND_REDIS_PREFIX}${HAND_SESSION_ID}`, JSON.stringify({ userId: 'bench-user-1', expiresAt, revoked: false }));
  await pipeline.exec();
  client.disconnect();
}
