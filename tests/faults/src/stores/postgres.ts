import { randomBytes } from 'node:crypto';
import { reachService } from '@sessauth/conformance';
import { startFaultProxy } from '@sessauth/conformance/faults';
import pg from 'pg';
import { sleep } from '../load.js';
import { networkFaults } from '../proxy-faults.js';
import { HOLD_MS, SQL_DEADLINE_MS } from '../timing.js';
import type { StoreUnderFault } from './store-under-fault.js';

const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * PostgreSQL on 127.0.0.1:5432, in a database of its own (created here, dropped
 * at the end), reached by the servers through a fault proxy. Backends are
 * terminated only in that database: nobody else's connections.
 */
export async function postgresUnderFault(): Promise<StoreUnderFault | null> {
  const admin = await reachService('PostgreSQL 127.0.0.1:5432', async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    return client;
  });
  if (admin === null) return null;
  admin.on('error', () => undefined);
  const database = `sessauth_faults_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${database}`);
  const proxy = await startFaultProxy({ target: { port: 5432 } });
  const terminate = () =>
    admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
  return {
    label: 'PostgreSQL',
    storeUrl: `postgres://postgres@127.0.0.1:${proxy.port}/${database}`,
    deadlineMs: SQL_DEADLINE_MS,
    faults: [
      ...networkFaults(proxy, { transaction: 'begin', capStep: 'pg_advisory_xact_lock', commit: 'commit' }),
      {
        name: 'pg_terminate_backend of every backend of the servers, three times',
        holdMs: 0,
        async inject() {
          for (let i = 0; i < 3; i += 1) {
            await terminate();
            await sleep(HOLD_MS / 3);
          }
        },
        heal: async () => undefined,
      },
    ],
    async close() {
      await proxy.close();
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    },
  };
}
