import { reachService } from '@sessauth/conformance';
import { createServer } from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openKyselyFromUrl } from '../src/open-from-url.js';

// The multi-host URL against the shared server on 5432 (only `select`s, no table):
// a host that refuses connections is passed over, and a server whose sessions are
// read-only (as a standby's are) is never used. The failover itself, on a real
// primary and standby: tests/faults/test/postgres-failover.test.ts.
const reachable = await reachService('PostgreSQL 127.0.0.1:5432', async () => {
  const opened = await openKyselyFromUrl('postgres://postgres@127.0.0.1:5432/test', { poolSize: 1 });
  try {
    await sql`select 1`.execute(opened.db);
  } finally {
    await opened.destroy();
  }
  return true;
});

/** A port nothing listens on (just closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `options` makes every session of that host read-only, as on a standby (`SHOW transaction_read_only` is on). */
const READ_ONLY = 'options=-c%20default_transaction_read_only%3Don';

describe.skipIf(reachable === null)('openKyselyFromUrl with several PostgreSQL hosts', () => {
  const readOnlyOf = async (url: string): Promise<string> => {
    const opened = await openKyselyFromUrl(url, { poolSize: 2, operationTimeoutMs: 3000 });
    try {
      const { rows } = await sql<{ transaction_read_only: string }>`show transaction_read_only`.execute(opened.db);
      return rows[0]?.transaction_read_only ?? 'no row';
    } finally {
      await opened.destroy();
    }
  };

  it('passes over a host that refuses connections and connects to the next, writable one', async () => {
    const closed = await closedPort();
    expect(await readOnlyOf(`postgres://postgres@127.0.0.1:${closed},127.0.0.1:5432/test?target_session_attrs=read-write`)).toBe('off');
  });

  it('never hands out a read-only connection: with only read-only hosts every statement fails, naming the hosts', async () => {
    const url = `postgres://postgres@127.0.0.1:5432/test?target_session_attrs=read-write&${READ_ONLY}`;
    const failure = await readOnlyOf(url).then(
      () => null,
      (error: unknown) => error as Error & { code?: string },
    );
    expect(failure?.message).toMatch(/no writable PostgreSQL host among 127\.0\.0\.1:5432/);
    // What the store_unavailable log line shows as driver_code.
    expect(failure?.code).toBe('NO_WRITABLE_HOST');
  });

  it('with target_session_attrs=any, takes the first host that answers, read-only or not', async () => {
    expect(await readOnlyOf(`postgres://postgres@127.0.0.1:5432/test?target_session_attrs=any&${READ_ONLY}`)).toBe('on');
  });
});
