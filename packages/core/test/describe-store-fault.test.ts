import { createServer, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeStoreFault } from '../src/errors/describe-store-fault.js';
import { StoreUnavailableError } from '../src/errors/sessauth-error.js';

/** A real ECONNREFUSED: a port that was just listening and is now closed. */
async function refusedConnection(): Promise<Error> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return new Promise((resolve) => connect(port, '127.0.0.1').on('error', resolve));
}

describe('describeStoreFault', () => {
  it('names the operation, the driver code, the server endpoint and a hint for a refused connection', async () => {
    const cause = await refusedConnection();
    const fields = describeStoreFault(new StoreUnavailableError('redis store: findSession failed', { cause, operation: 'findSession' }));
    expect(fields).toMatchObject({ operation: 'findSession', driver_code: 'ECONNREFUSED' });
    expect(fields.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(fields.hint).toMatch(/cannot be reached/);
  });

  it.each([
    ['42P01', 'relation "sessauth_session" does not exist', /migrateToLatest\(\) or `sessauth-kysely migrate`/],
    ['ER_NO_SUCH_TABLE', "Table 'test.sessauth_session' doesn't exist", /migrateToLatest/],
    ['SQLITE_ERROR', 'no such table: sessauth_session', /migrateToLatest/],
    ['NOSCRIPT', 'NOSCRIPT No matching script', /script cache/],
    ['SQLITE_BUSY', 'database is locked', /write lock/],
  ])('driver code %s gets its hint', (code, message, hint) => {
    const driverError = Object.assign(new Error(message), { code });
    const fields = describeStoreFault(new StoreUnavailableError('store: createSession failed', { cause: driverError, operation: 'createSession' }));
    expect(fields.driver_code).toBe(code);
    expect(fields.hint).toMatch(hint);
    expect(JSON.stringify(fields)).not.toContain(message);
  });

  it('says nothing it does not know', () => {
    expect(describeStoreFault(new StoreUnavailableError('down'))).toEqual({});
    expect(describeStoreFault(new Error('x'))).toEqual({});
  });
});
