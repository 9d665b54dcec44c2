import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { provideSqliteAddon } from './native-builds.js';
import { npm } from './npm.js';
import type { PeerVariant } from './peer-variants.js';

/** The package.json of every app: a plain project outside any workspace. */
export function appManifest(dependencies: Readonly<Record<string, string>>): string {
  return `${JSON.stringify({ name: 'sessauth-packaging-app', version: '1.0.0', private: true, dependencies }, null, 2)}\n`;
}

const MARK = '.complete';
const KEEP_UNUSED_MS = 3 * 24 * 3600 * 1000;
/** How long a resolution is reused before npm is asked again what "newest" is. */
const RESOLUTION_TTL_MS = 12 * 3600 * 1000;

interface Resolution {
  readonly manifestHash: string;
  readonly lockHash: string;
  readonly at: number;
}

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);

/** The lockfile hash this variant's manifest resolved to within the last hours, if its base is still there. */
function recentResolution(bases: string, variant: PeerVariant, manifestHash: string): string | null {
  const file = join(bases, `resolution-${variant.name}.json`);
  if (!existsSync(file)) return null;
  const resolution = JSON.parse(readFileSync(file, 'utf8')) as Resolution;
  const fresh = resolution.manifestHash === manifestHash && Date.now() - resolution.at < RESOLUTION_TTL_MS;
  const base = join(bases, `${variant.name}-${resolution.lockHash}`);
  return fresh && existsSync(join(base, MARK)) ? base : null;
}

/**
 * The third-party half of an app (peers, frameworks, types), installed by npm and
 * cached under `cacheRoot/bases/<variant>-<hash of its package-lock.json>`: npm
 * resolves the variant first (a lockfile only), and only a lockfile not seen before is
 * installed. A resolution is reused for 12 hours (resolving asks the registry about
 * every package of the tree: a minute on a busy machine), so "newest" is at most half a
 * day old: a release of a peer makes a new lockfile and is installed and tested that day.
 * Returns the directory (package.json, package-lock.json, node_modules).
 */
export async function installBase(cacheRoot: string, variant: PeerVariant): Promise<string> {
  const bases = join(cacheRoot, 'bases');
  const manifest = appManifest(variant.dependencies);
  const recent = recentResolution(bases, variant, sha(manifest));
  if (recent !== null) return used(bases, variant, recent);
  const scratch = join(bases, `.resolve-${variant.name}-${randomBytes(4).toString('hex')}`);
  mkdirSync(scratch, { recursive: true });
  try {
    writeFileSync(join(scratch, 'package.json'), manifest);
    await npm(cacheRoot, scratch, ['install', '--package-lock-only', '--ignore-scripts']);
    const lockHash = sha(readFileSync(join(scratch, 'package-lock.json')));
    const base = join(bases, `${variant.name}-${lockHash}`);
    if (!existsSync(join(base, MARK))) {
      // `npm install` on the lockfile, not `npm ci`: a lockfile written with
      // --package-lock-only can lack optional platform packages (rollup's), which ci refuses.
      await npm(cacheRoot, scratch, ['install', '--ignore-scripts']);
      await provideSqliteAddon(cacheRoot, scratch);
      writeFileSync(join(scratch, MARK), `${new Date().toISOString()}\n`);
      rmSync(base, { recursive: true, force: true });
      renameSync(scratch, base);
    }
    const resolution: Resolution = { manifestHash: sha(manifest), lockHash, at: Date.now() };
    writeFileSync(join(bases, `resolution-${variant.name}.json`), `${JSON.stringify(resolution)}\n`);
    return used(bases, variant, base);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function used(bases: string, variant: PeerVariant, base: string): string {
  const now = new Date();
  utimesSync(join(base, MARK), now, now);
  pruneUnused(bases, variant.name, base);
  return base;
}

/** Bases of this variant no run has used for three days go (each is a full node_modules). */
function pruneUnused(bases: string, variantName: string, current: string): void {
  for (const entry of readdirSync(bases)) {
    const dir = join(bases, entry);
    if (!entry.startsWith(`${variantName}-`) || dir === current) continue;
    const mark = join(dir, MARK);
    const lastUse = existsSync(mark) ? statSync(mark).mtimeMs : 0;
    if (Date.now() - lastUse > KEEP_UNUSED_MS) rmSync(dir, { recursive: true, force: true });
  }
}
