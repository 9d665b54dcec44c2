import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mapLimit, runCommand } from './run-command.js';

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
  'nestjs',
  'conformance',
  'opentelemetry',
  'client',
] as const;
export type PublicPackage = (typeof PUBLIC_PACKAGES)[number];

/** The tarball of each public package, by directory name. */
export type PackedWorkspace = Readonly<Record<PublicPackage, string>>;

/** What `npm publish --dry-run` of one packed package would upload: its name, version and file list. */
export interface PublishDryRun {
  readonly name: string;
  readonly version: string;
  readonly files: readonly string[];
}

/**
 * `npm publish --dry-run` of every packed tarball (the files `pnpm publish` uploads are the
 * ones `pnpm pack` wrote): nothing is uploaded, and a package the registry would refuse fails here.
 */
export async function publishDryRun(packed: PackedWorkspace): Promise<PublishDryRun[]> {
  return mapLimit(PUBLIC_PACKAGES, 4, async (name) => {
    const result = await runCommand('npm', ['publish', '--dry-run', '--json', packed[name]], { cwd: dirname(packed[name]) });
    const [report] = Object.values(JSON.parse(result.stdout) as Record<string, { name: string; version: string; files: Array<{ path: string }> }>);
    if (report === undefined) throw new Error(`npm publish --dry-run printed no report for @sessauth/${name}`);
    return { name: report.name, version: report.version, files: report.files.map((file) => file.path) };
  });
}

/**
 * Packs the public packages with `scripts/pack-packages.mjs`, the command the docs give users
 * for installing before a release (`pnpm pack:packages`): the build (a turbo cache hit under
 * `pnpm test`), then `pnpm pack` of each, as `pnpm publish` would: `catalog:` and `workspace:`
 * ranges resolved, `publishConfig` applied, the prepack script run.
 */
export async function packWorkspace(destination: string): Promise<PackedWorkspace> {
  await runCommand(process.execPath, [join(WORKSPACE_ROOT, 'scripts/pack-packages.mjs'), destination], { cwd: WORKSPACE_ROOT });
  const files = readdirSync(destination);
  const packed = {} as Record<PublicPackage, string>;
  for (const name of PUBLIC_PACKAGES) {
    const file = files.find((f) => f.startsWith(`sessauth-${name}-`) && f.endsWith('.tgz'));
    if (file === undefined || !existsSync(join(destination, file))) throw new Error(`pnpm pack left no tarball for @sessauth/${name}`);
    packed[name] = join(destination, file);
  }
  return packed;
}
