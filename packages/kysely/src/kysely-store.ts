import type {
  AdminSessionPage,
  AdminSessionQuery,
  CreateSessionInput,
  RotateOutcome,
  RotateRefreshInput,
  SessionRecord,
  SessionStore,
} from '@sessauth/core';
import type { Kysely } from 'kysely';
import { listSessionsForAdmin } from './admin-listing.js';
import { createSession } from './create-session.js';
import { purgeExpired } from './purge-expired.js';
import { rotateRefresh } from './rotate-refresh.js';
import { toRecord, type SessionRow } from './session-row.js';
import { affectedRows, createStoreContext, type KyselyStoreOptions, type StoreContext } from './store-context.js';
import { guard } from './store-guard.js';

export type { KyselyStoreOptions };

/**
 * The session store over a Kysely instance you own (PostgreSQL, MySQL/MariaDB or
 * SQLite). Run `migrateToLatest` first. The store never closes the instance.
 */
export class KyselySessionStore<DB = unknown> implements SessionStore {
  readonly #ctx: StoreContext;

  constructor(db: Kysely<DB>, options: KyselyStoreOptions = {}) {
    this.#ctx = createStoreContext(db, options);
  }

  createSession(input: CreateSessionInput): Promise<SessionRecord> {
    return guard('createSession', () => createSession(this.#ctx, input));
  }

  findSession(id: string): Promise<SessionRecord | null> {
    return guard('findSession', async () => {
      const query = this.#ctx.queries.findById.bind({ id });
      const rows = this.#ctx.directReads?.readHot(query.sql, query.parameters) ?? (await this.#ctx.db.executeQuery(query)).rows;
      const row = rows[0] as SessionRow | undefined;
      return row === undefined ? null : toRecord(row);
    });
  }

  listActiveSessions(userId: string, now: Date): Promise<SessionRecord[]> {
    return guard('listActiveSessions', async () => {
      const query = this.#ctx.queries.listActive.bind({ userId, now: now.getTime() });
      return (await this.#ctx.db.executeQuery(query)).rows.map(toRecord);
    });
  }

  rotateRefresh(input: RotateRefreshInput): Promise<RotateOutcome> {
    return guard('rotateRefresh', () => rotateRefresh(this.#ctx, input));
  }

  expireSession(id: string, userId: string, now: Date): Promise<boolean> {
    return guard('expireSession', async () => {
      const query = this.#ctx.queries.expireOne.bind({ id, userId, now: now.getTime() });
      return affectedRows(await this.#ctx.db.executeQuery(query)) > 0;
    });
  }

  expireAllForUser(userId: string, now: Date): Promise<number> {
    return guard('expireAllForUser', async () => {
      const query = this.#ctx.queries.expireAll.bind({ userId, now: now.getTime() });
      return affectedRows(await this.#ctx.db.executeQuery(query));
    });
  }

  touchSession(id: string, now: Date): Promise<void> {
    return guard('touchSession', async () => {
      await this.#ctx.db.executeQuery(this.#ctx.queries.touch.bind({ id, now: now.getTime() }));
    });
  }

  purgeExpired(now: Date): Promise<number> {
    return guard('purgeExpired', () => purgeExpired(this.#ctx, now));
  }

  listSessionsForAdmin(query: AdminSessionQuery): Promise<AdminSessionPage> {
    return guard('listSessionsForAdmin', () => listSessionsForAdmin(this.#ctx, query));
  }
}

/** Same as `new KyselySessionStore(db, options)`. */
export function createKyselyStore<DB>(db: Kysely<DB>, options: KyselyStoreOptions = {}): KyselySessionStore<DB> {
  return new KyselySessionStore(db, options);
}
