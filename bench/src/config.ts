/**
 * What every bench process agrees on: the signing settings, where each store lives
 * and the names it uses there. Tables and keys carry the `bench16` prefix so the
 * bench never touches another suite's data on the shared local servers.
 */
export const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
export const ISSUER = 'https://bench.sessauth.local';
export const AUDIENCE = 'sessauth-bench';
/** Long enough to outlive a whole run: a token minted at server start must stay valid. */
export const ACCESS_TOKEN_SECONDS = 6 * 60 * 60;

export const STORE_NAMES = ['memory', 'sqlite', 'postgres', 'mariadb', 'redis'] as const;
export type StoreName = (typeof STORE_NAMES)[number];

export const SESSION_TABLE = 'bench16_session';
export const RATE_LIMIT_TABLE = 'bench16_rate_limit';
export const REDIS_PREFIX = 'bench16:';
/** The hand-written Redis guard's own keys: one JSON string per session, read with one GET. */
export const HAND_REDIS_PREFIX = 'bench16:hand:';

export interface StoreUrls {
  readonly sqlite: string;
  readonly postgres: string;
  readonly mariadb: string;
  readonly redis: string;
}

/** Overridable from the environment for a machine whose services live elsewhere. */
export function storeUrls(env: NodeJS.ProcessEnv = process.env): StoreUrls {
  return {
    sqlite: env.BENCH_SQLITE_PATH ?? '/tmp/sessauth-bench16/bench.db',
    postgres: env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    mariadb: env.BENCH_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306/test',
    redis: env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

/**
 * Connections of every SQL pool (sessauth's, the hand-written guards', better-auth's): enough
 * for 32 concurrent requests, and a whole framework block stays under PostgreSQL's default 100.
 */
export const POOL_SIZE = 16;

/** Sessions stored besides the measured one, so lookups run against a populated index. */
export const SEEDED_SESSIONS = 5000;

/** The user every measured session belongs to. */
export const BENCH_USER = { id: 'bench-user-1', username: 'bench', password: 'bench-password-1' } as const;
