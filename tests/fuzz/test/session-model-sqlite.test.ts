import { afterAll, beforeAll, describe, it } from 'vitest';
import { fuzzTimeoutMs } from '../../../packages/core/test/property/kit/fuzz-settings.js';
import { checkSessionModel } from '../../../packages/core/test/property/session-model/check-session-model.js';
import { openSqliteStore, type SqliteStore } from '../src/sqlite-store.js';

/**
 * The core's model-based test of the session state machine (packages/core/test/property),
 * here on a real store: the Kysely store on SQLite. Generated sequences of up to 40 steps.
 */
const RUNS = { full: 200 };

let sqlite: SqliteStore;
beforeAll(async () => {
  sqlite = await openSqliteStore();
});
afterAll(() => sqlite.close());

describe('session state machine against the reference model (SQLite store)', () => {
  it(
    'answers every generated sequence as the model does, and the store agrees after every step',
    async () => {
      await checkSessionModel('session-model/sqlite', () => sqlite.store, RUNS);
    },
    fuzzTimeoutMs(RUNS),
  );
});
