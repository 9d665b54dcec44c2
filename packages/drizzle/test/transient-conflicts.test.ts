import { randomBytes } from 'node:crypto';
import { StoreUnavailableError } from '@sessauth/core';
import { reachService } from '@sessauth/conformance';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { createConnection } from 'mysql2';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { guard } from '../src/store/guard.js';
import { MYSQL_URL, POSTGRES_URL } from './support/test-databases.js';

/** Two connections, as drizzle, that take two row locks in opposite orders: the server picks a deadlock victim. */
interface DeadlockPair {
  run(which: 0 | 1, statement: string): Promise<unknown>;
  table: string;
  close(): Promise<void>;
}

/** The error drizzle hands back for a real deadlock victim (a DrizzleQueryError around the driver's). */
async function realDeadlockError({ run, table }: DeadlockPair): Promise<unknown> {
  await run(0, 'begin');
  await run(1, 'begin');
  await run(0, `update ${table} set n = n + 1 where id = 1`);
  await run(1, `update ${table} set n = n + 1 where id = 2`);
  const outcomes = await Promise.allSettled([
    run(0, `update ${table} set n = n + 1 where id = 2`),
    run(1, `update ${table} set n = n + 1 where id = 1`),
  ]);
  await run(0, 'rollback');
  await run(1, 'rollback');
  const victim = outcomes.find((outcome) => outcome.status === 'rejected');
  if (victim === undefined) throw new Error('no deadlock was reported');
  return victim.reason;
}

async function postgresPair(): Promise<DeadlockPair | null> {
  const clients = await reachService('PostgreSQL 127.0.0.1:5432', async () => {
    const pair = [new pg.Client(POSTGRES_URL), new pg.Client(POSTGRES_URL)];
    for (const client of pair) await client.connect();
    return pair;
  });
  if (clients === null) return null;
  const dbs = clients.map((client) => drizzlePg(client));
  const table = `deadlock_${randomBytes(4).toString('hex')}`;
  await clients[0]!.query(`create table ${table} (id int primary key, n int); insert into ${table} values (1, 0), (2, 0)`);
  return {
    table,
    run: (which, statement) => dbs[which]!.execute(sql.raw(statement)),
    async close() {
      await clients[0]!.query(`drop table ${table}`);
      await Promise.all(clients.map((client) => client.end()));
    },
  };
}

async function mariadbPair(): Promise<DeadlockPair | null> {
  const connections = await reachService('MariaDB/MySQL 127.0.0.1:3306', async () => {
    const pair = [createConnection(MYSQL_URL), createConnection(MYSQL_URL)];
    for (const connection of pair) await connection.promise().query('select 1');
    return pair;
  });
  if (connections === null) return null;
  const dbs = connections.map((connection) => drizzleMysql(connection));
  const table = `deadlock_${randomBytes(4).toString('hex')}`;
  await connections[0]!.promise().query(`create table ${table} (id int primary key, n int) engine=InnoDB`);
  await connections[0]!.promise().query(`insert into ${table} values (1, 0), (2, 0)`);
  return {
    table,
    run: (which, statement) => dbs[which]!.execute(sql.raw(statement)),
    async close() {
      await connections[0]!.promise().query(`drop table ${table}`);
      await Promise.all(connections.map((connection) => connection.promise().end()));
    },
  };
}

// A deadlock victim was rolled back whole: the store runs the call again. The error arrives
// wrapped by drizzle, so this also proves the driver's code is found through `cause`.
for (const [label, open] of [
  ['PostgreSQL', postgresPair],
  ['MariaDB', mariadbPair],
] as const) {
  const pair = await open();
  describe(`a call that is a ${label} deadlock victim`, () => {
    afterAll(async () => {
      await pair?.close();
    });

    it.skipIf(pair === null)('is run again and answers with its next attempt', async () => {
      const deadlock = await realDeadlockError(pair!);
      expect(deadlock).toBeInstanceOf(DrizzleQueryError);
      let attempts = 0;
      const answer = await guard('rotateRefresh', 2000, async () => {
        attempts += 1;
        if (attempts === 1) throw deadlock;
        return 'rotated';
      });
      expect(answer).toBe('rotated');
      expect(attempts).toBe(2);
    });

    it.skipIf(pair === null)('is answered with StoreUnavailableError when it keeps meeting deadlocks until the deadline', async () => {
      const deadlock = await realDeadlockError(pair!);
      let attempts = 0;
      const failure = guard('rotateRefresh', 200, async () => {
        attempts += 1;
        throw deadlock;
      });
      await expect(failure).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(attempts).toBeGreaterThan(1);
    });
  });
}

describe('a call that fails for another reason', () => {
  it('is not run again', async () => {
    let attempts = 0;
    const failure = guard('rotateRefresh', 2000, async () => {
      attempts += 1;
      throw Object.assign(new Error('duplicate key'), { code: 'ER_DUP_ENTRY' });
    });
    await expect(failure).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(attempts).toBe(1);
  });
});
