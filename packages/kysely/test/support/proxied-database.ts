import { randomBytes } from 'node:crypto';
import { reachService } from '@sessauth/conformance';
import { startFaultProxy, type FaultProxy } from '@sessauth/conformance/faults';
import { sql, type Kysely } from 'kysely';
import { KyselySessionStore, migrateToLatest } from '../../src/index.js';
import { openKyselyFromUrl } from '../../src/open-from-url.js';
import { dropMigrated } from './drop-migrated.js';

/** A migrated database reached through a fault proxy, plus a direct line for inspection. */
export interface ProxiedDatabase {
  readonly proxy: FaultProxy;
  /** The store, through the proxy, with the test's deadline. */
  readonly store: KyselySessionStore;
  /** Straight to the server (no proxy): to hold locks and read what committed. */
  readonly direct: Kysely<unknown>;
  readonly tableName: string;
  readonly poolSize: number;
  close(): Promise<void>;
}

export interface ProxiedTarget {
  readonly label: string;
  readonly engine: 'postgres' | 'mysql';
  open(operationTimeoutMs: number): Promise<ProxiedDatabase | null>;
}

const POOL_SIZE = 4;

function target(label: string, engine: 'postgres' | 'mysql', port: number, url: (port: number) => string): ProxiedTarget {
  return {
    label,
    engine,
    open: (operationTimeoutMs) =>
      reachService(label, async () => {
        const direct = await openKyselyFromUrl(url(port), { poolSize: 2 });
        const tableName = `sessauth_fault_${randomBytes(4).toString('hex')}`;
        try {
          await migrateToLatest(direct.db, { tableName, rateLimitTableName: `${tableName}_rl` });
        } catch (error) {
          await direct.destroy();
          throw error;
        }
        const proxy = await startFaultProxy({ target: { port } });
        // Unnamed statements, so that a `cut ... after` text is visible on the wire.
        const opened = await openKyselyFromUrl(url(proxy.port), {
          poolSize: POOL_SIZE,
          operationTimeoutMs,
          connectTimeoutMs: operationTimeoutMs,
          preparedStatements: false,
        });
        return {
          proxy,
          store: new KyselySessionStore(opened.db, { tableName, operationTimeoutMs }),
          direct: direct.db,
          tableName,
          poolSize: POOL_SIZE,
          async close() {
            await proxy.setMode({ kind: 'pass' });
            await opened.destroy().catch(() => undefined);
            await proxy.close();
            await dropMigrated(direct.db, direct.dialect, tableName, `${tableName}_rl`);
            await direct.destroy();
          },
        };
      }),
  };
}

export const PROXIED_TARGETS: readonly ProxiedTarget[] = [
  target('PostgreSQL 127.0.0.1:5432', 'postgres', 5432, (port) => `postgres://postgres@127.0.0.1:${port}/test`),
  target('MariaDB/MySQL 127.0.0.1:3306', 'mysql', 3306, (port) => `mysql://root@127.0.0.1:${port}/test`),
];

/**
 * Waits until a statement of one of the proxy's connections is blocked on a lock
 * (the server sees the proxy's upstream ports as its clients' ports): true then,
 * false if the call settled first (its deadline can end the wait on a loaded machine).
 */
export async function untilWaitingOnLock(database: ProxiedDatabase, engine: 'postgres' | 'mysql', settled: () => boolean): Promise<boolean> {
  for (;;) {
    if (settled()) return false;
    const ports = database.proxy.connections().map((c) => c.upstreamPort ?? -1);
    const { rows } =
      engine === 'postgres'
        ? await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and client_port in (${sql.join(ports)})`.execute(database.direct)
        : await sql<{ n: number }>`select count(*) as n from information_schema.innodb_trx t
            join information_schema.processlist p on p.id = t.trx_mysql_thread_id
            where t.trx_state = 'LOCK WAIT' and p.host in (${sql.join(ports.map((port) => `127.0.0.1:${port}`))})`.execute(database.direct);
    if (Number(rows[0]?.n ?? 0) > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
