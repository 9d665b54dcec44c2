#!/usr/bin/env node
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseEndpoint, describeDatabaseFailure } from './database-endpoint.js';
import { parsePostgresHosts } from './postgres/postgres-hosts.js';
import { DEFAULT_MYSQL_COLLATION, migrationDdl } from './ddl.js';
import { KyselySessionStore } from './kysely-store.js';
import { migrateToLatest } from './migrate.js';
import { openKyselyFromUrl } from './open-from-url.js';
import { KyselyRateLimitStore } from './rate-limit-store.js';

const USAGE = `Usage: sessauth-kysely <command> --url <database-url> [options]
       sessauth-kysely sql --dialect <postgres|mysql|sqlite> [options]

Commands:
  migrate   create or upgrade the sessauth tables (safe to repeat)
  purge     delete revoked and ended sessions and ended rate-limit windows
  sql       print the migrations' DDL (no connection), for Prisma, Drizzle or Knex migrations

Options:
  --url <url>                 postgres://..., mysql://..., mariadb://... or sqlite:<path>
                              (default: $DATABASE_URL)
  --table <name>              session table (default sessauth_session)
  --rate-limit-table <name>   rate-limit table (default sessauth_rate_limit)
  --dialect <name>            sql: postgres, mysql (also MariaDB) or sqlite
  --collation <name>          sql --dialect mysql: table collation (default ${DEFAULT_MYSQL_COLLATION};
                              MariaDB: utf8mb4_nopad_bin)
  -v, --version               print the version
  -h, --help                  show this help

Exit codes: 0 done, 1 the database failed, 2 bad usage.`;

const DIALECTS = ['postgres', 'mysql', 'sqlite'] as const;

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version === true) {
    console.log(packageVersion());
    return 0;
  }
  const command = positionals[0];
  if (values.help === true || command === undefined) {
    console.log(USAGE);
    return values.help === true ? 0 : 2;
  }
  if (command === 'sql') {
    const dialect = DIALECTS.find((name) => name === values.dialect);
    if (dialect === undefined) {
      console.error(`--dialect must be one of ${DIALECTS.join(', ')}\n\n${USAGE}`);
      return 2;
    }
    const tables = { tableName: values.table, rateLimitTableName: values['rate-limit-table'], mysqlCollation: values.collation };
    process.stdout.write(await migrationDdl(dialect, tables));
    return 0;
  }
  if (command !== 'migrate' && command !== 'purge') {
    console.error(`unknown command: ${command}\n\n${USAGE}`);
    return 2;
  }
  const url = values.url ?? process.env.DATABASE_URL;
  if (url === undefined || url === '') {
    console.error(`--url is required (or set DATABASE_URL)\n\n${USAGE}`);
    return 2;
  }
  const usageProblem = urlProblem(url);
  if (usageProblem !== undefined) {
    console.error(`sessauth-kysely: --url ${usageProblem}\n\n${USAGE}`);
    return 2;
  }
  const tables = { tableName: values.table, rateLimitTableName: values['rate-limit-table'] };
  // A migration may build indexes on a large table: no statement timeout there.
  const opened = await openKyselyFromUrl(url, { poolSize: 1, statementTimeoutMs: command === 'migrate' ? 0 : 5000 });
  try {
    return await run(command, opened, tables);
  } catch (error) {
    const endpoint = databaseEndpoint(url);
    if (endpoint === undefined) throw error;
    throw new Error(describeDatabaseFailure(`${command} failed`, endpoint, error));
  } finally {
    await opened.destroy();
  }
}

/** Why `url` cannot be a database URL (a usage error, exit 2), or undefined. */
function urlProblem(url: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'sqlite') return url.slice('sqlite:'.length) === '' ? 'needs a path, e.g. sqlite:./sessauth.db' : undefined;
  if (scheme === undefined || !['postgres', 'postgresql', 'mysql', 'mariadb'].includes(scheme)) {
    return `must start with postgres://, postgresql://, mysql://, mariadb:// or sqlite: (got ${scheme === undefined ? 'no scheme' : `${scheme}:`})`;
  }
  try {
    parsePostgresHosts(url);
  } catch (error) {
    return (error as Error).message.replace('@sessauth/kysely: ', '');
  }
  if (databaseEndpoint(url) === undefined) return 'is not a valid URL';
  return undefined;
}

async function run(
  command: 'migrate' | 'purge',
  opened: Awaited<ReturnType<typeof openKyselyFromUrl>>,
  tables: { tableName: string | undefined; rateLimitTableName: string | undefined },
): Promise<number> {
  if (command === 'migrate') {
    const { applied } = await migrateToLatest(opened.db, tables);
    console.log(applied.length === 0 ? 'sessauth: schema already up to date' : `sessauth: applied ${applied.join(', ')}`);
  } else {
    const now = new Date();
    const sessions = await new KyselySessionStore(opened.db, { tableName: tables.tableName }).purgeExpired(now);
    const counters = await new KyselyRateLimitStore(opened.db, { tableName: tables.rateLimitTableName }).purgeExpired(now);
    console.log(`sessauth: purged ${sessions} sessions and ${counters} rate-limit counters`);
  }
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      table: { type: 'string' },
      'rate-limit-table': { type: 'string' },
      dialect: { type: 'string' },
      collation: { type: 'string' },
      version: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** The version of this package: package.json sits one level above both src/ and dist/. */
function packageVersion(): string {
  const here = dirname(realpathSync(process.argv[1] ?? '.'));
  return (JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as { version: string }).version;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Messages only, no stack or connection details: a driver error may echo the URL.
    const message = error instanceof Error ? error.message : String(error);
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    console.error(`sessauth-kysely: ${message}${cause}`);
    process.exitCode = 1;
  },
);
