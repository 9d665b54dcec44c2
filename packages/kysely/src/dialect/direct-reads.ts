/**
 * The store's hot read (the guard's `findSession`, once per authenticated request)
 * run below kysely: its query builder, connection provider and plugins cost more
 * than the round trip of a read by primary key. `withStatementCache` (SQLite) and
 * `withNamedStatements` (PostgreSQL) provide it; hand it to `createKyselyStore` as
 * `directReads` (`openKyselyFromUrl` returns it). Only the store's own prepared
 * statements go this way.
 */
export interface DirectReads {
  /**
   * The rows of a hot read statement: at once (SQLite) or on a pooled connection of
   * its own (PostgreSQL). Null when this path cannot take it now; the store then goes
   * through kysely.
   */
  readHot(sqlText: string, parameters: readonly unknown[]): unknown[] | PromiseLike<unknown[]> | null;
}
