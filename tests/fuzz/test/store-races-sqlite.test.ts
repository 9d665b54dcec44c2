import { afterAll, beforeAll, describe, it } from 'vitest';
import { fuzzTimeoutMs } from '../../../packages/core/test/property/kit/fuzz-settings.js';
import { checkStoreRaces } from '../../../packages/core/test/property/store-races/check-store-races.js';
import { openSqliteStore, type SqliteStore } from '../src/sqlite-store.js';

/** The core's fc.scheduler races (packages/core/test/property) on the Kysely store over SQLite. */
const RUNS = { full: 300 };

let sqlite: SqliteStore;
beforeAll(async () => {
  sqlite = await openSqliteStore();
});
afterAll(() => sqlite.close());

describe('store races under fc.scheduler (SQLite store)', () => {
  it(
    'rotates a jti at most once, never after a revocation was answered, and keeps the login cap',
    async () => {
      await checkStoreRaces('store-races/sqlite', () => sqlite.store, RUNS);
    },
    fuzzTimeoutMs(RUNS),
  );
});
