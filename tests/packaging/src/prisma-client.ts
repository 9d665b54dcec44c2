import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, runCommand } from './run-command.js';

const HEADER = `generator client {
  provider = "prisma-client-js"
  output   = "../generated-prisma"
}

datasource db {
  provider = "postgresql"
}
`;

/**
 * The app's Prisma Client, made as a Prisma user makes it: a schema folder with the model block
 * of the installed @sessauth/prisma (the tarball's own file) beside a generator and datasource,
 * and the app's own `prisma` CLI (the version of its @prisma/client) generating the client into
 * generated-prisma/ (`prisma-client-js`: plain JS, which the ESM and the CommonJS server both load).
 * The CLI first looks for the schema engine it would download from binaries.prisma.sh, which
 * these machines cannot reach; `generate` never runs it, so where none was downloaded the CLI is
 * given a stand-in path that fails loudly if it ever were.
 */
export async function generatePrismaClient(app: string): Promise<void> {
  const schema = join(app, 'prisma');
  mkdirSync(schema, { recursive: true });
  writeFileSync(join(schema, 'schema.prisma'), HEADER);
  cpSync(join(app, 'node_modules', '@sessauth', 'prisma', 'prisma', 'postgresql', 'sessauth.prisma'), join(schema, 'sessauth.prisma'));
  const engines = join(app, 'node_modules', '@prisma', 'engines');
  const downloaded = existsSync(engines) && readdirSync(engines).some((name) => name.startsWith('schema-engine-'));
  const env: NodeJS.ProcessEnv = { PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
  if (!downloaded) {
    const standIn = join(app, 'no-schema-engine.sh');
    writeFileSync(standIn, '#!/bin/sh\necho "no Prisma schema engine here" >&2\nexit 1\n');
    chmodSync(standIn, 0o755);
    env.PRISMA_SCHEMA_ENGINE_BINARY = standIn;
  }
  const cli = join(app, 'node_modules', 'prisma', 'build', 'index.js');
  await runCommand(process.execPath, [cli, 'generate', '--schema', schema], { cwd: app, env: childEnv(env) });
}
