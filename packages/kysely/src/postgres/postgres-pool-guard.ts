import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { queryTimeout, withinDeadline, type PoolGuardOptions } from '../dialect/query-deadline.js';

/** The parts of a `pg` client the guard uses (structural: `pg` stays an optional peer). */
export interface PgClientLike {
  query(...args: never[]): unknown;
  release(error?: Error | boolean): void;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The parts of a `pg` Pool the guard uses. */
export interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  end(): Promise<void>;
  on(event: 'connect', listener: (client: PgClientLike) => void): unknown;
}

/**
 * Makes a `pg` Pool safe to lose the network under, for kysely's PostgresDialect:
 * - every client gets an `error` listener for its whole life. `pg` emits `error` on
 *   a client whose connection drops (a failover, a pooler restart, a reset); pg-pool
 *   listens only while the client is idle, so a drop during a query (a refresh
 *   waiting on a row lock) was an unhandled `error` event: the process exited.
 *   Now the statement fails, the store answers 503, and pg-pool discards the client
 *   when it is released (it is no longer queryable);
 * - every statement has a client-side deadline (`queryTimeoutMs`): a server that is
 *   alive but unreachable (packets dropped) never answers and no server-side
 *   timeout can help. Past the deadline the client is ended (its socket destroyed),
 *   so pg-pool drops it at release instead of handing a dead connection out again.
 *
 * `new PostgresDialect({ pool: withNamedStatements(guardPostgresPool(new pg.Pool(...))) })`;
 * keep `pool.on('error', ...)` too (pg-pool reports idle clients' errors there).
 */
export function guardPostgresPool(pool: PgPoolLike, options: PoolGuardOptions = {}): PostgresPool {
  const timeoutMs = queryTimeout(options.queryTimeoutMs);
  const listening = new WeakSet<PgClientLike>();
  const listen = (client: PgClientLike): void => {
    if (listening.has(client)) return;
    listening.add(client);
    // The failed statement reports the error; the event only must not go unheard.
    client.on('error', () => undefined);
  };
  pool.on('connect', listen);
  // One wrapper per client, so kysely sees the same connection again.
  const wrappers = new WeakMap<PgClientLike, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      listen(client);
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = boundClient(client, timeoutMs);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

function boundClient(client: PgClientLike, timeoutMs: number): PostgresPoolClient {
  const query = (...args: unknown[]): unknown => {
    const result = (client.query as (...a: unknown[]) => unknown)(...args);
    // A cursor (or another submittable) is returned as is: its reads are the caller's.
    if (!isThenable(result)) return result;
    return withinDeadline(result, timeoutMs, 'a PostgreSQL statement', () => {
      // With a statement in flight, `end()` destroys the socket at once.
      client.end().catch(() => undefined);
    });
  };
  return {
    query: query as PostgresPoolClient['query'],
    release: () => client.release(),
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
