import { randomBytes } from 'node:crypto';
import { createPasswordAuthenticator, createSessauth, MemorySessionStore, type Sessauth } from '@sessauth/core';
import type { SessauthRequest } from '@sessauth/core/adapter';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { reachService } from '@sessauth/conformance';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A host whose users live in MariaDB under the server's default collation (utf8mb4_general_ci:
 * case- and accent-insensitive), looked up by `WHERE username = ?`, as most hosts write it.
 * The per-account login budget must follow the account that lookup reaches, not the spelling.
 */
interface HostUser {
  readonly id: string;
  readonly username: string;
}

const PASSWORD = 'alice-correct-password';
let admin: Connection | null = null;
let table = '';
let auth: Sessauth<HostUser>;

beforeAll(async () => {
  admin = await reachService('MariaDB/MySQL 127.0.0.1:3306', () =>
    createConnection({ host: '127.0.0.1', port: 3306, user: 'root', database: 'test' }),
  );
  if (admin === null) return;
  table = `host_users_${randomBytes(4).toString('hex')}`;
  await admin.query(
    `create table ${table} (id varchar(36) primary key, username varchar(254) not null, password_hash text not null) character set utf8mb4 collate utf8mb4_general_ci`,
  );
  await admin.query(`insert into ${table} values (?, ?, ?)`, ['u-alice', 'alice', await argon2PasswordHasher.hash(PASSWORD)]);
  const db = admin;
  const users = {
    findById: async (id: string): Promise<HostUser | null> => {
      const [rows] = await db.query<RowDataPacket[]>(`select id, username from ${table} where id = ?`, [id]);
      return rows[0] === undefined ? null : { id: rows[0].id as string, username: rows[0].username as string };
    },
    findByUsername: async (username: string) => {
      const [rows] = await db.query<RowDataPacket[]>(`select id, username, password_hash from ${table} where username = ?`, [username]);
      const row = rows[0];
      return row === undefined
        ? null
        : { user: { id: row.id as string, username: row.username as string }, passwordHash: row.password_hash as string };
    },
    idOf: (user: HostUser) => user.id,
    securityStamp: () => 'stamp',
  };
  auth = await createSessauth<HostUser>({
    options: {
      secretKey: randomBytes(48).toString('base64url'),
      issuer: 'https://issuer.test',
      audience: 'collation-test',
      loginThrottleRate: '0',
      loginAccountThrottleRate: '10/hour',
    },
    store: new MemorySessionStore(),
    users,
    authenticator: createPasswordAuthenticator({ users, hasher: argon2PasswordHasher }),
    logger: { warn: () => {}, error: () => {} },
  });
});

afterAll(async () => {
  if (admin === null) return;
  await admin.query(`drop table if exists ${table}`);
  await admin.end();
});

function login(username: string, password: string): Promise<{ status: number; code: string | undefined }> {
  const body = new TextEncoder().encode(JSON.stringify({ username, password }));
  const request: SessauthRequest = {
    method: 'POST',
    path: '/auth/login/',
    headers: new Map([['content-type', ['application/json']]]),
    peerAddress: '198.51.100.20',
    secure: false,
    readBody: async () => body,
  };
  return auth.handle(request).then((response) => ({
    status: response!.status,
    code: response!.body === null ? undefined : (JSON.parse(response!.body) as { error_code?: string }).error_code,
  }));
}

describe('the per-account budget against a MariaDB users table in its default collation', () => {
  it('counts every spelling the collation folds into alice against alice: álice, àlice, ALICÉ, alïce get no fresh budget', async (test) => {
    if (admin === null) return test.skip('MariaDB is unreachable (see the line above)');
    // The collation really folds them: the host's own lookup finds alice for each.
    const [folded] = await admin.query<RowDataPacket[]>(`select count(*) as n from ${table} where username in (?, ?, ?, ?)`, [
      'álice',
      'àlice',
      'ALICÉ',
      'alïce',
    ]);
    expect(Number(folded[0]!.n)).toBe(1);
    expect((await login('álice', PASSWORD)).status).toBe(200);
    // Nine wrong guesses at alice: with the login above, her budget of 10 is spent.
    for (let i = 0; i < 9; i += 1) expect(await login('alice', `wrong-${i}`)).toEqual({ status: 401, code: 'invalid_credentials' });
    for (const spelling of ['álice', 'àlice', 'ALICÉ', 'alïce', 'Alice']) {
      expect(await login(spelling, PASSWORD), spelling).toEqual({ status: 429, code: 'rate_limited' });
    }
  });
});
