import { newSessionFixture } from '@sessauth/conformance';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { KyselySessionStore, migrateToLatest, openKyselyFromUrl, type SqliteDirectReads } from '../src/index.js';

/** Wraps the direct reader to record what it was asked and what it answered. */
function recording(inner: SqliteDirectReads) {
  const calls: { sqlText: string; parameters: readonly unknown[]; answered: boolean }[] = [];
  const reader: SqliteDirectReads = {
    close: () => inner.close(),
    prepare: (text) => inner.prepare(text),
    readHot(sqlText, parameters) {
      const rows = inner.readHot(sqlText, parameters);
      calls.push({ sqlText, parameters, answered: rows !== null });
      return rows;
    },
  };
  return { reader, calls };
}

describe('direct reads of findSession on SQLite', () => {
  it('reads committed rows directly, and never inside an open transaction', async () => {
    const opened = await openKyselyFromUrl('sqlite::memory:');
    try {
      await migrateToLatest(opened.db);
      const { reader, calls } = recording(opened.directReads as SqliteDirectReads);
      const store = new KyselySessionStore(opened.db, { directReads: reader });
      const session = newSessionFixture();
      await store.createSession({ session, maxActiveSessions: 5 });

      const found = await store.findSession(session.id);
      expect(found?.id).toBe(session.id);
      expect(found?.refreshJti).toBe(session.refreshJti);
      expect(calls).toHaveLength(1);
      expect(calls[0]!.answered).toBe(true);

      // While kysely holds a transaction open, the connection may carry uncommitted
      // writes: the direct path must decline, and the caller goes through kysely.
      const { sqlText, parameters } = calls[0]!;
      const inside = await opened.db.transaction().execute(async (trx) => {
        await sql`update sessauth_session set refresh_jti = 'uncommitted' where id = ${session.id}`.execute(trx);
        return opened.directReads!.readHot(sqlText, parameters);
      });
      expect(inside).toBeNull();

      // Statements the store did not prepare are never run on this path.
      expect(opened.directReads!.readHot('select 1', [])).toBeNull();
    } finally {
      await opened.destroy();
    }
  });
});
