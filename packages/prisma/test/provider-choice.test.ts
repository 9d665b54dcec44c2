import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaMariaDb } from '@prisma/adapter-mariadb';
import { PrismaPg } from '@prisma/adapter-pg';
import { describe, expect, it } from 'vitest';
import { PrismaRateLimitStore, PrismaSessionStore, type SessauthPrismaClient } from '../src/index.js';
import { PrismaClient as MysqlClient } from './.generated/mysql/client/client.js';
import { PrismaClient as PostgresqlClient } from './.generated/postgresql/client/client.js';
import { PrismaClient as SqliteClient } from './.generated/sqlite/client/client.js';

// Clients generated from the package's model blocks; none connects (Prisma connects lazily).
const postgres = new PostgresqlClient({ adapter: new PrismaPg({ host: '127.0.0.1', port: 1 }) });
const mysql = new MysqlClient({ adapter: new PrismaMariaDb({ host: '127.0.0.1', port: 1 }) });
const sqlite = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: ':memory:' }) });

describe('a store checks the client and its options once, when it is built', () => {
  it('takes a client generated for each provider (their generated types fit SessauthPrismaClient)', () => {
    expect(new PrismaSessionStore(postgres, { provider: 'postgresql', schema: 'auth' })).toBeInstanceOf(PrismaSessionStore);
    expect(new PrismaSessionStore(mysql, { provider: 'mysql' })).toBeInstanceOf(PrismaSessionStore);
    expect(new PrismaRateLimitStore(sqlite, { provider: 'sqlite' })).toBeInstanceOf(PrismaRateLimitStore);
  });

  it('refuses a provider the client was not generated for (its raw SQL would fail on every call)', () => {
    expect(() => new PrismaSessionStore(postgres, { provider: 'mysql' })).toThrow(/generated for "postgresql"/);
    expect(() => new PrismaRateLimitStore(sqlite, { provider: 'postgresql' })).toThrow(/generated for "sqlite"/);
    expect(() => new PrismaSessionStore(mysql, { provider: 'cockroachdb' as 'mysql' })).toThrow(/provider must be/);
  });

  it('refuses a client without the sessauth models', () => {
    const bare = { $transaction: () => undefined, $queryRawUnsafe: () => undefined, $executeRawUnsafe: () => undefined };
    expect(() => new PrismaSessionStore(bare as unknown as SessauthPrismaClient, { provider: 'sqlite' })).toThrow(
      /no sessauthSession: add the models/,
    );
    expect(() => new PrismaRateLimitStore(bare as unknown as SessauthPrismaClient, { provider: 'sqlite' })).toThrow(/no sessauthRateLimit/);
  });

  it('refuses names that are not identifiers, a schema outside PostgreSQL, a bad batch or deadline', () => {
    expect(() => new PrismaSessionStore(postgres, { provider: 'postgresql', tableName: 'sessions; drop table x' })).toThrow(/tableName must match/);
    expect(() => new PrismaSessionStore(postgres, { provider: 'postgresql', schema: 'a"b' })).toThrow(/schema must match/);
    expect(() => new PrismaSessionStore(mysql, { provider: 'mysql', schema: 'auth' })).toThrow(/PostgreSQL only/);
    expect(() => new PrismaSessionStore(sqlite, { provider: 'sqlite', purgeBatchSize: 0 })).toThrow(/purgeBatchSize/);
    expect(() => new PrismaSessionStore(sqlite, { provider: 'sqlite', operationTimeoutMs: 0 })).toThrow(/operationTimeoutMs/);
  });
});
