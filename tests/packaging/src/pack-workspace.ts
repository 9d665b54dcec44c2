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

/** What `pnpm publish --dry-run` of one package would upload: its name, version and file list. */
export interface PublishDryRun {
  readonly name: string;
  readonly version: string;
  readonly files: readonly string[];
}

/**
 * `pnpm publish --dry-run` of every public package, as the release workflow publishes them
 * (after the build): nothing is uploaded, and a package that could not be published fails here.
 */
export async function publishDryRun(): Promise<PublishDryRun[]> {
  return mapLimit(PUBLIC_PACKAGES, 3, async (name) => {
    const result = await pnpm(['publish', '--dry-run', '--no-git-checks', '--json'], join(WORKSPACE_ROOT, 'packages', name));
    // The prepack script's own lines come first; the report is the JSON object after them, keyed by package name.
    const json = result.stdout.slice(result.stdout.startsWith('{') ? 0 : result.stdout.indexOf('\n{') + 1);
    const [report] = Object.values(JSON.parse(json) as Record<string, { name: string; version: string; files: Array<{ path: string }> }>);
    if (report === undefined) throw new Error(`pnpm publish --dry-run printed no report for @sessauth/${name}`);
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
