// Runs before the server (`pnpm example prisma` runs it first): generates the Prisma Client from
// ./prisma (skipped while the schema files are unchanged), then applies ./prisma/migrations.
//
// Prisma's CLI migrates with its schema engine, a binary it downloads from binaries.prisma.sh on
// first use; `prisma generate` needs no engine, but the CLI still insists on finding one. Where
// the engine is there, this is any Prisma project: `prisma generate`, `prisma migrate deploy`.
// Where it cannot be downloaded (this repository's CI machines reach the npm registry only),
// the client is generated with a stand-in engine path that fails loudly if ever run, and a new
// database gets the migration files applied in order as plain SQL, which the example says.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const prismaCli = require.resolve('prisma/build/index.js');
const generated = join(root, 'src', 'generated', 'prisma');

/** The schema engine Prisma downloaded, or one the environment names; null when there is none. */
function schemaEngine() {
  const named = process.env.PRISMA_SCHEMA_ENGINE_BINARY;
  if (named !== undefined && existsSync(named)) return named;
  const engines = dirname(createRequire(prismaCli).resolve('@prisma/engines/package.json'));
  const file = readdirSync(engines).find((name) => name.startsWith('schema-engine-'));
  return file === undefined ? null : join(engines, file);
}

function prisma(args, env) {
  const run = spawnSync(process.execPath, [prismaCli, ...args], {
    cwd: root,
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    console.error(run.stdout, run.stderr);
    process.exit(run.status ?? 1);
  }
}

const engine = schemaEngine();
const standIn = () => {
  const path = join(generated, '..', 'no-schema-engine.sh');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '#!/bin/sh\necho "no Prisma schema engine on this machine (see scripts/prepare.mjs)" >&2\nexit 1\n');
  chmodSync(path, 0o755);
  return path;
};

// 1. The client, when the schema changed since it was generated.
const inputs = ['schema.prisma', 'sessauth.prisma'].map((name) => readFileSync(join(root, 'prisma', name), 'utf8')).join('\n');
const version = JSON.parse(readFileSync(join(dirname(prismaCli), '..', 'package.json'), 'utf8')).version;
const digest = createHash('sha256').update(`${version}\n${inputs}`).digest('hex');
const stamp = join(generated, 'inputs.sha256');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== digest) {
  prisma(['generate'], engine === null ? { PRISMA_SCHEMA_ENGINE_BINARY: standIn() } : {});
  writeFileSync(stamp, digest);
}
if (process.argv.includes('--generate-only')) process.exit(0);

// 2. The migrations.
const url = process.env.SESSAUTH_STORE?.trim() || 'sqlite:./.data/sessauth.db';
if (!url.startsWith('sqlite:')) {
  console.error(`SESSAUTH_STORE: this example runs on SQLite (sqlite:<path>), got "${url.split(':')[0]}:"`);
  process.exit(2);
}
const file = url.slice('sqlite:'.length);
mkdirSync(dirname(resolve(root, file)), { recursive: true });
if (engine !== null) {
  prisma(['migrate', 'deploy']);
} else {
  const Database = require('better-sqlite3');
  const db = new Database(resolve(root, file));
  const fresh = db.prepare("select count(*) as n from sqlite_master where type = 'table' and name = 'User'").get().n === 0;
  if (fresh) {
    const folder = join(root, 'prisma', 'migrations');
    const migrations = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    db.exec(['pragma journal_mode = WAL;', ...migrations.map((name) => readFileSync(join(folder, name, 'migration.sql'), 'utf8'))].join('\n'));
    console.log(`No Prisma schema engine here (prisma migrate needs it): applied ${migrations.join(', ')} as plain SQL.`);
  }
  db.close();
}
