import type { SessionModelRow } from '@sessauth/core/store';

/**
 * A session row under the tables' JS keys, as the Drizzle tables type it: instants as epoch
 * milliseconds (a driver may still hand a BIGINT back as a string or a bigint, a SQLite database
 * opened with safe integers; `sessionRecordFromModelRow` converts with `Number`).
 */
export type SessionRow = SessionModelRow<number>;
