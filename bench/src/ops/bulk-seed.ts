import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { SessionStore } from '@sessauth/core';
import { storeUrls, type StoreName } from '../config.js';
import { sessionRecord } from '../stores/seed.js';

const COLUMNS =
  'id, user_id, refresh_jti, security_stamp, created_at, last_activity_at, expires_at, expired_at, ip_address, user_agent, browser, location';

/**
 * `count` filler sessions of distinct users. SQL stores get one INSERT ... SELECT over a
 * generated series through the raw driver (a million rows through the store would
 * take an hour); memory and Redis go through the store's own `createSession`.
 */
export async function bulkSeed(store: StoreName, table: string, sessions: SessionStore, count: number): Promise<void> {
  const now = Date.now();
  const expires = now + 14 * 24 * 60 * 60 * 1000;
  const urls = storeUrls();
  const values = (i: string, concat: (...parts: string[]) => string) =>
    `${concat("'scale-'", i)}, ${concat("'scale-user-'", i)}, ${concat("'jti-'", i)}, 'filler-stamp', ${now}, ${now}, ${expires}, null, null, 'sessauth-bench', null, null`;
  const pipes = (...parts: string[]) => parts.join(' || ');
  if (store === 'sqlite') {
    const db = new Database(urls.sqlite);
    db.exec(
      `with recursive c(i) as (select 1 union all select i + 1 from c where i < ${count}) insert into ${table} (${COLUMNS}) select ${values('i', pipes)} from c`,
    );
    db.close();
  } else if (store === 'postgres') {
    const client = new pg.Client({ connectionString: urls.postgres });
    await client.connect();
    await client.query(`insert into ${table} (${COLUMNS}) select ${values('g', pipes)} from generate_series(1, ${count}) g`);
    await client.query(`analyze ${table}`);
    await client.end();
  } else if (store === 'mariadb') {
    const connection = await mysql.createConnection({ uri: urls.mariadb });
    const concat = (...parts: string[]) => `concat(${parts.join(', ')})`;
    await connection.query(`insert into ${table} (${COLUMNS}) select ${values('seq', concat)} from seq_1_to_${count}`);
    await connection.query(`analyze table ${table}`);
    await connection.end();
  } else {
    const date = new Date(now);
    const batch = store === 'redis' ? 256 : 1;
    for (let start = 0; start < count; start += batch) {
      const calls: Promise<unknown>[] = [];
      for (let i = start; i < Math.min(count, start + batch); i += 1) {
        calls.push(sessions.createSession({ session: sessionRecord(`scale-${i}`, `scale-user-${i}`, date), maxActiveSessions: 20 }));
      }
      await Promise.all(calls);
    }
  }
}
