import { describe, it } from 'vitest';
import { fuzzTimeoutMs } from '../../../packages/core/test/property/kit/fuzz-settings.js';
import { BATCH, checkAdapterFuzz } from '../src/check-adapter-fuzz.js';
import { mountFastify } from '../src/fuzz-mounts.js';

/** 10^4 generated raw requests (1,000 cases of `BATCH` = 10). */
const CASES = { full: 10_000 / BATCH };

describe('generated raw HTTP requests against the fastify adapter', () => {
  it(
    'never answers 5xx, never hangs, never crashes or leaks an unhandled rejection, logs no error, and keeps its heap',
    async () => {
      await checkAdapterFuzz('fastify', mountFastify, CASES);
    },
    fuzzTimeoutMs(CASES, 240_000),
  );
});
