import type { Compilable, Kysely } from 'kysely';
import type { SqlDialect } from './dialect/sql-dialect.js';
import { PreparedQuery, slot } from './prepared-query.js';
import type { SessionDb } from './schema.js';
import { SESSION_COLUMNS, type PackedSessionRow, type SessionRow } from './session-row.js';

/** The ordering key of an active session (for the login cap). */
export interface ActiveKey {
  id: string;
  created_at: number | string | bigint;
}

/** The store's fixed-shape statements, compiled once per store for its dialect. */
export interface SessionQueries {
  readonly findById: PreparedQuery<SessionRow, 'id'>;
  /** `findSession`, the guard's read: `findById`, or its row packed in one text column where the dialect packs rows. */
  readonly findSession: PreparedQuery<SessionRow, 'id'> | PreparedQuery<PackedSessionRow, 'id'>;
  /** Same read, with a row lock where the engine has row locks. */
  readonly findByIdForUpdate: PreparedQuery<SessionRow, 'id'>;
  /** The compare-and-swap; returns the row where the engine has UPDATE ... RETURNING. */
  readonly rotate: PreparedQuery<SessionRow, 'id' | 'userId' | 'presentedJti' | 'nextJti' | 'stamp' | 'now' | 'idleCutoff'>;
  readonly revoke: PreparedQuery<never, 'id' | 'now'>;
  readonly touch: PreparedQuery<never, 'id' | 'now'>;
  readonly listActive: PreparedQuery<SessionRow, 'userId' | 'now'>;
  readonly activeOldestFirst: PreparedQuery<ActiveKey, 'userId' | 'now'>;
  readonly expireOne: PreparedQuery<never, 'id' | 'userId' | 'now'>;
  readonly expireAll: PreparedQuery<never, 'userId' | 'now'>;
  /** `expireAll` keeping one session (`exceptId`) as it is. */
  readonly expireAllExcept: PreparedQuery<never, 'userId' | 'now' | 'exceptId'>;
}

export function prepareSessionQueries(db: Kysely<SessionDb>, table: string, dialect: SqlDialect): SessionQueries {
  const now = slot<number>('now');
  const id = slot<string>('id');
  const userId = slot<string>('userId');
  const findById = db.selectFrom(table).select(SESSION_COLUMNS).where('id', '=', id);
  const activeOfUser = db.selectFrom(table).where('user_id', '=', userId).where('expired_at', 'is', null).where('expires_at', '>', now);
  const rotate = db
    .updateTable(table)
    .set({ refresh_jti: slot<string>('nextJti'), last_activity_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expired_at', 'is', null)
    .where('expires_at', '>', now)
    .where('security_stamp', '=', slot<string>('stamp'))
    .where('refresh_jti', '=', slot<string>('presentedJti'))
    // The idle timeout, in the same swap (-1 when it is off: every stored instant is later).
    .where('last_activity_at', '>', slot<number>('idleCutoff'));

  const findByIdQuery = new PreparedQuery(findById as Compilable<SessionRow>, ['id']);
  const packed = dialect.packColumns?.(SESSION_COLUMNS);
  return {
    findById: findByIdQuery,
    findSession:
      packed === undefined
        ? findByIdQuery
        : new PreparedQuery(db.selectFrom(table).select(packed.as('packed')).where('id', '=', id) as Compilable<PackedSessionRow>, ['id']),
    findByIdForUpdate: new PreparedQuery((dialect.rowLocks ? findById.forUpdate() : findById) as Compilable<SessionRow>, ['id']),
    rotate: new PreparedQuery((dialect.updateReturning ? rotate.returning(SESSION_COLUMNS) : rotate) as Compilable<SessionRow>, [
      'id',
      'userId',
      'presentedJti',
      'nextJti',
      'stamp',
      'now',
      'idleCutoff',
    ]),
    revoke: new PreparedQuery(
      db.updateTable(table).set({ expired_at: now }).where('id', '=', id).where('expired_at', 'is', null) as Compilable<never>,
      ['id', 'now'],
    ),
    // Never revives a revoked row, never moves activity backwards.
    touch: new PreparedQuery(
      db
        .updateTable(table)
        .set({ last_activity_at: now })
        .where('id', '=', id)
        .where('expired_at', 'is', null)
        .where('last_activity_at', '<', now) as Compilable<never>,
      ['id', 'now'],
    ),
    listActive: new PreparedQuery(
      activeOfUser.select(SESSION_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc') as Compilable<SessionRow>,
      ['userId', 'now'],
    ),
    activeOldestFirst: new PreparedQuery(
      activeOfUser.select(['id', 'created_at']).orderBy('created_at', 'asc').orderBy('id', 'asc') as Compilable<ActiveKey>,
      ['userId', 'now'],
    ),
    expireOne: new PreparedQuery(
      db
        .updateTable(table)
        .set({ expired_at: now })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('expired_at', 'is', null)
        .where('expires_at', '>', now) as Compilable<never>,
      ['id', 'userId', 'now'],
    ),
    expireAll: new PreparedQuery(
      db
        .updateTable(table)
        .set({ expired_at: now })
        .where('user_id', '=', userId)
        .where('expired_at', 'is', null)
        .where('expires_at', '>', now) as Compilable<never>,
      ['userId', 'now'],
    ),
    expireAllExcept: new PreparedQuery(
      db
        .updateTable(table)
        .set({ expired_at: now })
        .where('user_id', '=', userId)
        .where('expired_at', 'is', null)
        .where('expires_at', '>', now)
        .where('id', '<>', slot<string>('exceptId')) as Compilable<never>,
      ['userId', 'now', 'exceptId'],
    ),
  };
}
