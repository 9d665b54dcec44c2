import { describe, it } from 'vitest';
import { MemorySessionStore } from '../../../src/store/memory-store.js';
import { fuzzTimeoutMs } from '../kit/fuzz-settings.js';
import { checkSessionModel } from './check-session-model.js';

/** Generated sequences of up to 40 steps; the SQLite run of the same model is in tests/fuzz. */
const RUNS = { full: 400 };

describe('session state machine against the reference model (memory store)', () => {
  it(
    'answers every generated sequence as the model does, and the store agrees after every step',
    async () => {
      await checkSessionModel('session-model/memory', () => new MemorySessionStore(), RUNS);
    },
    fuzzTimeoutMs(RUNS),
  );
});
