import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { StoreUnavailableError } from '../src/errors/sessauth-error.js';
import { StoreSchemaError } from '../src/errors/store-schema-error.js';
import type { Logger } from '../src/log/logger.js';
import { MemoryRateLimitStore } from '../src/rate-limit/memory-rate-limit-store.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { RateLimitStore, SessionStore } from '../src/store/store-port.js';

type Line = { level: string; event: string; fields: Record<string, unknown> | undefined };

function recordingLogger(): Logger & { lines: Line[] } {
  const lines: Line[] = [];
  return {
    lines,
    warn: (event, fields) => lines.push({ level: 'warn', event, fields }),
    error: (event, fields) => lines.push({ level: 'error', event, fields }),
  };
}

const FIX = 'run migrateToLatest() or `npx sessauth-kysely migrate`';
const options = { secretKey: 'an-hmac-secret-of-exactly-32-by!', issuer: 'https://issuer.test', audience: 'aud' };

function start(store: SessionStore, logger: Logger, rateLimitStore?: RateLimitStore) {
  return createSessauth({
    options,
    store,
    ...(rateLimitStore === undefined ? {} : { rateLimitStore }),
    users: { findById: async () => null, idOf: () => '', securityStamp: () => '' },
    authenticator: async () => {
      throw new Error('not called');
    },
    logger,
  });
}

/** The in-memory stores with a `verify` that answers as told, counting its calls. */
class VerifyingSessionStore extends MemorySessionStore {
  calls = 0;
  constructor(private readonly answer: () => Promise<void>) {
    super();
  }
  verify(): Promise<void> {
    this.calls += 1;
    return this.answer();
  }
}
class VerifyingRateLimitStore extends MemoryRateLimitStore {
  calls = 0;
  constructor(private readonly answer: () => Promise<void>) {
    super();
  }
  verify(): Promise<void> {
    this.calls += 1;
    return this.answer();
  }
}

describe('createSessauth runs the stores’ verify() at start-up', () => {
  it('calls verify on the session and the rate-limit store once each, and starts quietly when both resolve', async () => {
    const store = new VerifyingSessionStore(async () => undefined);
    const limiter = new VerifyingRateLimitStore(async () => undefined);
    const logger = recordingLogger();
    await start(store, logger, limiter);
    expect([store.calls, limiter.calls]).toEqual([1, 1]);
    expect(logger.lines).toEqual([]);
  });

  it('rejects with the StoreSchemaError, which names the table, the columns, the migration and the fix', async () => {
    const problem = { table: 'sessauth_rate_limit', missingColumns: [], migration: '0002-create-rate-limit' };
    const limiter = new VerifyingRateLimitStore(async () => {
      throw new StoreSchemaError([problem], FIX);
    });
    const error: unknown = await start(new MemorySessionStore(), recordingLogger(), limiter).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreSchemaError);
    const schema = error as StoreSchemaError;
    expect(schema.problems).toEqual([problem]);
    expect(schema.code).toBe('service_unavailable');
    expect(schema.message).toBe(
      `store schema is not up to date: table "sessauth_rate_limit" is missing (migration 0002-create-rate-limit). Fix: ${FIX}`,
    );
  });

  it('lists missing columns in the message', () => {
    const error = new StoreSchemaError([{ table: 's', missingColumns: ['name', 'kind'], migration: '0003-x' }], FIX);
    expect(error.message).toContain('table "s" lacks columns name, kind (migration 0003-x)');
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.name).toBe('StoreSchemaError');
  });

  it('an unreachable store does not stop the start: it logs store_unverified with the fault details', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 1 });
    const store = new VerifyingSessionStore(async () => {
      throw new StoreUnavailableError('verify failed', { cause: refused, operation: 'verify' });
    });
    const logger = recordingLogger();
    const auth = await start(store, logger);
    expect(typeof auth.handle).toBe('function');
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({
      level: 'warn',
      event: 'store_unverified',
      fields: { store: 'session', operation: 'verify', driver_code: 'ECONNREFUSED', endpoint: '127.0.0.1:1' },
    });
  });

  it('a verify that throws something else (a third-party store) is logged the same way, not thrown', async () => {
    const store = new VerifyingSessionStore(() => {
      throw new TypeError('boom');
    });
    const logger = recordingLogger();
    await start(store, logger);
    expect(logger.lines.map((line) => [line.event, line.fields?.error])).toEqual([['store_unverified', 'TypeError']]);
  });

  it('a store without verify (an optional capability) is simply not checked', async () => {
    const logger = recordingLogger();
    await expect(start(new MemorySessionStore(), logger, new MemoryRateLimitStore())).resolves.toBeDefined();
    expect(logger.lines).toEqual([]);
  });
});

describe('createSessauth runs the stores’ checkSchema() (the name verify() had before)', () => {
  it('prefers checkSchema over the deprecated verify, and rejects with its StoreSchemaError', async () => {
    const calls: string[] = [];
    const problem = new StoreSchemaError([{ table: 'sessauth_session', missingColumns: ['name'], migration: '0003-session-name' }], FIX);
    const store = Object.assign(new MemorySessionStore(), {
      checkSchema: async () => {
        calls.push('checkSchema');
        throw problem;
      },
      verify: async () => {
        calls.push('verify');
      },
    });
    await expect(start(store, recordingLogger())).rejects.toBe(problem);
    expect(calls).toEqual(['checkSchema']);
  });
});
