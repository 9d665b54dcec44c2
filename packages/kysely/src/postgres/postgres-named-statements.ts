import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { createHash } from 'node:crypto';
import { isHotStatement } from '../prepared-query.js';
import type { DirectReads } from '../dialect/direct-reads.js';

/**
 * Optional PostgreSQL tuning: wraps the `pg` pool you give to kysely's
 * PostgresDialect so the store's hot statements (findSession, rotateRefresh, ...)
 * run as named prepared statements: parsed and planned once per connection
 * instead of on every call, which is most of the gap to a hand-written
 * `pool.query({ name, text, values })`. Every other query passes through as is.
 * Not for a PgBouncer in transaction mode older than 1.21 (it loses named statements).
 *
 * The result is also the store's `directReads`: the guard's read then takes a pooled
 * connection and runs its named statement without going through kysely.
 *
 * `const pool = withNamedStatements(new pg.Pool(...))`, `new PostgresDialect({ pool })`,
 * `createKyselyStore(db, { directReads: pool })`
 */
export function withNamedStatements(pool: PostgresPool): PostgresPool & DirectReads {
  // One wrapper per client, so kysely sees the same connection again (its
  // `onCreateConnection` runs once per connection, not once per checkout).
  const wrappers = new WeakMap<PostgresPoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = wrapClient(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
    readHot: (sqlText, parameters) => (isHotStatement(sqlText) ? readRows(pool, namedQuery(sqlText, parameters)) : null),
  };
}

async function readRows(pool: PostgresPool, config: NamedQuery): Promise<unknown[]> {
  const client = await pool.connect();
  try {
    return ((await (client as unknown as QueryConfigClient).query(config)) as { rows: unknown[] }).rows;
  } finally {
    client.release();
  }
}

interface NamedQuery {
  name: string;
  text: string;
  values: unknown[];
}

const namedQuery = (text: string, parameters: ReadonlyArray<unknown> | undefined): NamedQuery => ({
  name: statementName(text),
  text,
  values: [...(parameters ?? [])],
});

type QueryConfigClient = { query(config: NamedQuery): Promise<unknown> };

function wrapClient(client: PostgresPoolClient): PostgresPoolClient {
  const query = (sqlOrCursor: unknown, parameters?: ReadonlyArray<unknown>): unknown => {
    if (typeof sqlOrCursor === 'string' && isHotStatement(sqlOrCursor)) {
      return (client as unknown as QueryConfigClient).query(namedQuery(sqlOrCursor, parameters));
    }
    return (client.query as (...args: unknown[]) => unknown).call(client, sqlOrCursor, parameters);
  };
  return {
    query: query as PostgresPoolClient['query'],
    release: (...args: unknown[]) => (client.release as (...a: unknown[]) => void).apply(client, args),
  };
}

const names = new Map<string, string>();

/** A name per SQL text (a name bound to another text would be refused by pg). */
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `sessauth_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}
