// Generates the Prisma clients the tests use, one per provider, from this package's own model
// blocks (prisma/<provider>/sessauth*.prisma: the models, and the optional activity and outbox
// ones, so \`prisma generate\` validates every file a user adds) beside a test header (generator + datasource), as a
// user's schema folder holds them. Skipped when the inputs are unchanged.
//
// `prisma generate` needs no engine binary (the client runs on driver adapters), but the CLI
// first checks that the schema engine is present and downloads it from binaries.prisma.sh,
// which these machines cannot reach. PRISMA_SCHEMA_ENGINE_BINARY names a stand-in that fails
// loudly if anything ever runs it; a real engine, when the environment names one, wins.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'test', '.generated');
const PROVIDERS = ['postgresql', 'mysql', 'sqlite'];
const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js');
const prismaVersion = JSON.parse(readFileSync(join(dirname(prismaCli), '..', 'package.json'), 'utf8')).version;

function header(provider) {
  return `generator client {
  provider = "prisma-client"
  output   = "../client"
}

datasource db {
  provider = "${provider}"
}
`;
}

function engineStandIn() {
  const path = join(out, 'no-schema-engine.sh');
  writeFileSync(path, '#!/bin/sh\necho "no Prisma schema engine on this machine (see scripts/generate-test-clients.mjs)" >&2\nexit 1\n');
  chmodSync(path, 0o755);
  return path;
}

mkdirSync(out, { recursive: true });
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= engineStandIn();
for (const provider of PROVIDERS) {
  const files = readdirSync(join(root, 'prisma', provider))
    .filter((name) => name.startsWith('sessauth') && name.endsWith('.prisma'))
    .sort();
  const models = files.map((name) => `${name}\n${readFileSync(join(root, 'prisma', provider, name), 'utf8')}`).join('\n');
  const digest = createHash('sha256')
    .update(`${prismaVersion}\n${header(provider)}\n${models}`)
    .digest('hex');
  const dir = join(out, provider);
  const stamp = join(dir, 'inputs.sha256');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) continue;
  // Generated aside and moved into place whole: another process (a second vitest project)
  // may generate at the same moment, and a reader never sees half a client.
  const scratch = `${dir}.${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(join(scratch, 'schema'), { recursive: true });
  writeFileSync(join(scratch, 'schema', 'schema.prisma'), header(provider));
  for (const name of files) cpSync(join(root, 'prisma', provider, name), join(scratch, 'schema', name));
  const run = spawnSync(process.execPath, [prismaCli, 'generate', '--schema', join(scratch, 'schema')], { cwd: root, env, encoding: 'utf8' });
  if (run.status !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    console.error(run.stdout, run.stderr);
    throw new Error(`prisma generate failed for ${provider} (exit ${run.status})`);
  }
  writeFileSync(join(scratch, 'inputs.sha256'), digest);
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(scratch, dir);
  } catch {
    // The other process moved its client in first: the same inputs, so the same client.
    rmSync(scratch, { recursive: true, force: true });
  }
}
