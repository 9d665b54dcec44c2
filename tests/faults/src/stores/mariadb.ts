import { randomBytes } from 'node:crypto';
import { reachService } from '@sessauth/conformance';
import { startFaultProxy } from '@sessauth/conformance/faults';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { sleep } from '../load.js';
import { networkFaults } from '../proxy-faults.js';
import { HOLD_MS, SQL_DEADLINE_MS } from '../timing.js';
import type { StoreUnderFault } from './store-under-fault.js';

/**
 * MariaDB/MySQL on 127.0.0.1:3306, in a database of its own (created here,
 * dropped at the end), reached through a fault proxy. KILL hits only the
 * connections of that database: nobody else's.
 */
export async function mariadbUnderFault(): Promise<StoreUnderFault | null> {
  const admin = await reachService('MariaDB/MySQL 127.0.0.1:3306', () =>
    createConnection({ host: '127.0.0.1', port: 3306, user: 'root', database: 'test' }),
  );
  if (admin === null) return null;
  admin.on('error', () => undefined);
  const database = `sessauth_faults_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${database}`);
  const proxy = await startFaultProxy({ target: { port: 3306 } });
  return {
    label: 'MariaDB',
    storeUrl: `mysql://root@127.0.0.1:${proxy.port}/${database}`,
    deadlineMs: SQL_DEADLINE_MS,
    faults: [
      ...networkFaults(proxy, { transaction: 'begin', capStep: '_user_lock', commit: 'commit' }),
      {
        name: 'KILL of every connection of the servers, three times',
        holdMs: 0,
        async inject() {
          for (let i = 0; i < 3; i += 1) {
            await killConnections(admin, database);
            await sleep(HOLD_MS / 3);
          }
        },
        heal: async () => undefined,
      },
    ],
    async close() {
      await proxy.close();
      await admin.query(`drop database if exists ${database}`);
      await admin.end();
    },
  };
}

async function killConnections(admin: Connection, database: string): Promise<void> {
  const [rows] = await admin.query<RowDataPacket[]>('select id from information_schema.processlist where db = ? and id <> connection_id()', [
    database,
  ]);
  for (const row of rows) {
    // A connection may end between the listing and the KILL.
    await admin.query(`kill ${Number(row.id)}`).catch(() => undefined);
  }
}
