import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ModuleSystem } from './app-files.js';
import type { ServiceUrls } from './services.js';
import type { Framework, Leg } from './start-app.js';

const FRAMEWORKS: readonly Framework[] = ['express', 'hono', 'fastify', 'koa'];

/** The SQLite file of a leg: the test breaks it from outside to make a store fault. */
export function sqliteFile(app: string, system: ModuleSystem, framework: Framework): string {
  return join(app, `${system}-${framework}.db`);
}

/**
 * The servers one app process starts: every framework on the memory store and on
 * SQLite (better-sqlite3), and one framework each on PostgreSQL (pg), MySQL (mysql2)
 * and Redis (ioredis) when the server is up, so that every peer runs at the version
 * the app installed; the Drizzle store on SQLite and PostgreSQL, the Prisma store on
 * PostgreSQL (adapter-pg). The SQL and Redis legs get their own tables, keys or schema
 * (the Prisma leg, whose generated client names fixed tables, a PostgreSQL schema).
 */
export function appLegs(app: string, system: ModuleSystem, services: ServiceUrls): Leg[] {
  const legs: Leg[] = [];
  for (const framework of FRAMEWORKS) {
    legs.push({ id: `${framework}-memory`, framework, store: 'memory', hasher: 'argon2' });
    legs.push({ id: `${framework}-sqlite`, framework, store: 'sqlite', hasher: 'argon2', url: `sqlite:${sqliteFile(app, system, framework)}` });
  }
  const suffix = `${system}_${randomBytes(4).toString('hex')}`;
  if (services.postgres !== null) {
    legs.push({
      id: 'express-postgres',
      framework: 'express',
      store: 'postgres',
      hasher: 'argon2',
      url: services.postgres,
      tableName: `sessauth_pkg_${suffix}`,
    });
  }
  if (services.mysql !== null) {
    legs.push({ id: 'hono-mysql', framework: 'hono', store: 'mysql', hasher: 'argon2', url: services.mysql, tableName: `sessauth_pkg_${suffix}` });
  }
  // The ORM stores: Drizzle on tables Kysely migrated (one layout), Prisma on its own migration.
  legs.push({
    id: 'express-drizzle-sqlite',
    framework: 'express',
    store: 'drizzle-sqlite',
    hasher: 'argon2',
    url: `sqlite:${join(app, `${system}-drizzle.db`)}`,
  });
  if (services.postgres !== null) {
    const tableName = `sessauth_pkg_drizzle_${suffix}`;
    legs.push({
      id: 'fastify-drizzle-postgres',
      framework: 'fastify',
      store: 'drizzle-postgres',
      hasher: 'argon2',
      url: services.postgres,
      tableName,
    });
    legs.push({
      id: 'hono-prisma-postgres',
      framework: 'hono',
      store: 'prisma-postgres',
      hasher: 'argon2',
      url: services.postgres,
      schema: `sessauth_pkg_prisma_${suffix}`,
    });
  }
  if (services.redis !== null) {
    legs.push({ id: 'koa-redis', framework: 'koa', store: 'redis', hasher: 'argon2', url: services.redis, keyPrefix: `sessauth-pkg-${suffix}:` });
  }
  return legs;
}
