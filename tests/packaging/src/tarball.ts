import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCommand } from './run-command.js';

/** The fields of a packed package.json these tests read. */
export interface PackedManifest {
  readonly name: string;
  readonly version: string;
  readonly exports?: unknown;
  readonly publishConfig?: unknown;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  readonly [field: string]: unknown;
}

/** The paths inside a tarball, without npm's `package/` prefix. */
export async function listTarball(tarball: string): Promise<string[]> {
  const { stdout } = await runCommand('tar', ['-tzf', tarball], { cwd: dirname(tarball) });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''));
}

export async function readTarballFile(tarball: string, path: string): Promise<string> {
  const { stdout } = await runCommand('tar', ['-xzOf', tarball, `package/${path}`], { cwd: dirname(tarball) });
  return stdout;
}

export async function readPackedManifest(tarball: string): Promise<PackedManifest> {
  return JSON.parse(await readTarballFile(tarball, 'package.json')) as PackedManifest;
}

/** Writes a copy of `tarball` to `destination` whose package.json went through `edit`. */
export async function rewriteTarball(tarball: string, destination: string, edit: (manifest: PackedManifest) => PackedManifest): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'sessauth-tarball-'));
  try {
    await runCommand('tar', ['-xzf', tarball, '-C', scratch], { cwd: scratch });
    const manifestPath = join(scratch, 'package', 'package.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackedManifest;
    writeFileSync(manifestPath, `${JSON.stringify(edit(manifest), null, 2)}\n`);
    await runCommand('tar', ['-czf', destination, '-C', scratch, 'package'], { cwd: scratch });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
