import { withinDeadline } from '../dialect/query-deadline.js';
import type { PgClientLike, PgPoolLike } from './postgres-pool-guard.js';
import type { TargetSessionAttrs } from './postgres-hosts.js';

/** A `pg` client as this pool uses it: the read-only check is one plain query. */
interface CheckableClient extends PgClientLike {
  query(text: string): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** One host's own `pg` Pool, with where it points (for the error message). */
export interface HostPool {
  readonly hostPort: string;
  readonly pool: PgPoolLike;
}

export interface ReadWritePoolOptions {
  readonly targetSessionAttrs: TargetSessionAttrs;
  /** Bound on the read-only check of a new connection; past it the connection is destroyed. */
  readonly checkTimeoutMs: number;
}

/** No host gave a connection of the kind asked for; `cause` is the last host's reason. */
export class NoWritableHostError extends Error {
  override readonly name = 'NoWritableHostError';
  /** Shown as `driver_code` in the `store_unavailable` log line (before the last host's own reason). */
  readonly code = 'NO_WRITABLE_HOST';
}

/**
 * libpq's multi-host connection for `pg`, which has none: one `pg` Pool per host,
 * and `connect()` takes a connection from the host that last gave a good one, else
 * from the others in the order listed. With `read-write`, each new connection is
 * checked once (`SHOW transaction_read_only`, libpq's own check) and a standby's is
 * destroyed, so no statement of the store ever runs on a read-only server: after a
 * failover, the connections to the dead primary fail (their calls answer 503, pg-pool
 * drops them) and the next ones go to the promoted standby, without a restart.
 *
 * The last good host is tried first (not the first listed) so that an old primary
 * brought back without being demoted (a split brain, which a failover manager must
 * fence) does not take the writes back from the one that was promoted.
 */
export function readWritePool(hosts: readonly HostPool[], options: ReadWritePoolOptions): PgPoolLike {
  if (hosts.length === 0) throw new TypeError('@sessauth/kysely: a PostgreSQL URL needs a host');
  const checked = new WeakSet<PgClientLike>();
  let preferred = 0;

  const fromHost = async (index: number): Promise<PgClientLike> => {
    const host = hosts[index] as HostPool;
    const client = await host.pool.connect();
    if (options.targetSessionAttrs === 'any' || checked.has(client)) return client;
    let readOnly: boolean;
    try {
      const result = await withinDeadline(
        (client as CheckableClient).query('show transaction_read_only'),
        options.checkTimeoutMs,
        `the read-only check of ${host.hostPort}`,
        () => client.end().catch(() => undefined),
      );
      readOnly = result.rows[0]?.transaction_read_only !== 'off';
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (readOnly) {
      // Destroyed, not returned: a standby's connection must never be handed out.
      client.release(true);
      throw new Error(`${host.hostPort} is read-only (a standby)`);
    }
    checked.add(client);
    return client;
  };

  return {
    async connect() {
      const order = [preferred, ...hosts.keys()].filter((index, position, all) => all.indexOf(index) === position);
      let lastError: unknown;
      for (const index of order) {
        try {
          const client = await fromHost(index);
          preferred = index;
          return client;
        } catch (error) {
          lastError = error;
        }
      }
      const tried = hosts.map((host) => host.hostPort).join(', ');
      throw new NoWritableHostError(
        `@sessauth/kysely: no ${options.targetSessionAttrs === 'read-write' ? 'writable ' : ''}PostgreSQL host among ${tried}`,
        { cause: lastError },
      );
    },
    async end() {
      await Promise.all(hosts.map((host) => host.pool.end()));
    },
    on(event, listener) {
      for (const host of hosts) host.pool.on(event, listener);
      return this;
    },
  };
}
