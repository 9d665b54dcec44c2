import { describe, it } from 'vitest';
import { MemorySessionStore } from '../../../src/store/memory-store.js';
import { fuzzTimeoutMs } from '../kit/fuzz-settings.js';
import { checkStoreRaces } from './check-store-races.js';

/** Generated interleavings of 2 to 8 calls; the SQLite run of the same property is in tests/fuzz. */
const RUNS = { full: 1000 };

describe('store races under fc.scheduler (memory store)', () => {
  it(
    'rotates a jti at most once, never after a revocation was answered, and keeps the login cap',
    async () => {
      await checkStoreRaces('store-races/memory', () => new MemorySessionStore(), RUNS);
    },
    fuzzTimeoutMs(RUNS),
  );
});
