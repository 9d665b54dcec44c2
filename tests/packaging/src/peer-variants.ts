import semver from 'semver';
import type { PackedManifest } from './tarball.js';

export type VariantName = 'newest' | 'lowest' | 'minimal';

/** What one app asks npm for besides the @sessauth tarballs. */
export interface PeerVariant {
  readonly name: VariantName;
  readonly dependencies: Readonly<Record<string, string>>;
}

/**
 * What the apps install beside the peers: the Node server under Hono, and the type
 * packages of the frameworks that ship none (the consumer file is typechecked).
 * The @hono/node-server floor is its advisory floor (.ci/advisory-floors.json).
 */
const HELPERS_LOWEST: Readonly<Record<string, string>> = { '@hono/node-server': '1.19.15' };

/** Every third-party peer the packed packages declare, with its range (the core itself excluded). */
export function peerRanges(manifests: readonly PackedManifest[]): Map<string, string> {
  const ranges = new Map<string, string>();
  for (const manifest of manifests) {
    for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
      if (name.startsWith('@sessauth/')) continue;
      const known = ranges.get(name);
      if (known !== undefined && known !== range) throw new Error(`${name}: two peer ranges (${known}, ${range}) across packages`);
      ranges.set(name, range);
    }
  }
  return ranges;
}

/**
 * What a user of a peer installs beside it, at the peer's own version: Prisma's CLI (which
 * generates the client) and the PostgreSQL driver adapter go with `@prisma/client`.
 */
const COMPANIONS: Readonly<Record<string, readonly string[]>> = { '@prisma/client': ['prisma', '@prisma/adapter-pg'] };

/**
 * `newest`: what `npm install <name>` gives a user today (`*`: the newest version whose
 * `engines` accept this Node, as npm picks). `lowest`: the floor of every peer range,
 * read from the packed manifests so a raised floor is tested the day it is raised.
 */
export function peerVariants(manifests: readonly PackedManifest[]): readonly PeerVariant[] {
  const ranges = peerRanges(manifests);
  const nodeMajor = process.versions.node.split('.')[0]!;
  const newest: Record<string, string> = { '@hono/node-server': '*', '@types/express': '*', '@types/koa': '*' };
  const lowest: Record<string, string> = { ...HELPERS_LOWEST };
  for (const [name, range] of ranges) {
    const floor = semver.minVersion(range);
    if (floor === null) throw new Error(`${name}: no lowest version in ${range}`);
    for (const installed of [name, ...(COMPANIONS[name] ?? [])]) {
      newest[installed] = '*';
      lowest[installed] = floor.version;
    }
  }
  // Types follow the framework's major: @types/express 4 for Express 4.
  for (const [types, framework] of [
    ['@types/express', 'express'],
    ['@types/koa', 'koa'],
  ] as const) {
    const floor = lowest[framework];
    if (floor !== undefined) lowest[types] = `^${semver.major(floor)}`;
  }
  newest['@types/node'] = `^${nodeMajor}`;
  lowest['@types/node'] = `^${nodeMajor}`;
  return [
    { name: 'newest', dependencies: newest },
    { name: 'lowest', dependencies: lowest },
  ];
}
