import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mapLimit, runCommand, type CommandResult } from './run-command.js';

export const WORKSPACE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every package a user can install, by directory under packages/. */
export const PUBLIC_PACKAGES = [
  'core',
  'node-http',
  'express',
  'fastify',
  'koa',
  'fetch',
  'kysely',
  'redis',
  'drizzle',
  'prisma',
  'conformance',
  'client',
] as const;
export type PublicPackage = (typeof PUBLIC_PACKAGES)[number];

/** The tarball of each public package, by directory name. */
export type PackedWorkspace = Readonly<Record<PublicPackage, string>>;

/**
 * pnpm as the contributor runs it: the one on PATH (under `pnpm test`), else the
 * version the root package.json pins, through npx (as the README's commands do).
 */
async function pnpm(args: readonly string[], cwd: string): Promise<CommandResult> {
  const onPath = await runCommand('pnpm', ['--version'], { cwd, allowFailure: true }).catch(() => null);
  if (onPath !== null && onPath.code === 0) return runCommand('pnpm', args, { cwd });
  const manifest = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'package.json'), 'utf8')) as { packageManager: string };
  return runCommand('npx', ['--yes', '-p', manifest.packageManager, 'pnpm', ...args], { cwd });
}

/**
 * Builds the public packages (a turbo cache hit under `pnpm test`, which built them
 * first) and packs each with `pnpm pack`, as `pnpm publish` would: `catalog:` and
 * `workspace:` ranges resolved, `publishConfig` applied, the prepack script run.
 */
export async function packWorkspace(destination: string): Promise<PackedWorkspace> {
  const filters = PUBLIC_PACKAGES.map((name) => `--filter=./packages/${name}`);
  await pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', ...filters], WORKSPACE_ROOT);
  await mapLimit(PUBLIC_PACKAGES, 3, (name) => pnpm(['pack', '--pack-destination', destination], join(WORKSPACE_ROOT, 'packages', name)));
  const files = readdirSync(destination);
  const packed = {} as Record<PublicPackage, string>;
  for (const name of PUBLIC_PACKAGES) {
    const file = files.find((f) => f.startsWith(`sessauth-${name}-`) && f.endsWith('.tgz'));
    if (file === undefined || !existsSync(join(destination, file))) throw new Error(`pnpm pack left no tarball for @sessauth/${name}`);
    packed[name] = join(destination, file);
  }
  return packed;
}
