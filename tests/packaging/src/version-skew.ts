import { join } from 'node:path';
import type { PackedWorkspace } from './pack-workspace.js';
import { rewriteTarball, type PackedManifest } from './tarball.js';

/**
 * The packages of an app that upgraded `@sessauth/core` to 0.2.0 while its adapter and
 * store stay at 0.1.0 (a partial upgrade, a lockfile refresh, a renovate PR for one
 * package): the same tarballs, the core's republished as 0.2.0.
 */
export const SKEWED_APP = { '@sessauth/core': '0.2.0', '@sessauth/express': '0.1.0', '@sessauth/kysely': '0.1.0' } as const;

/** The packages a registry must hold for SKEWED_APP (node-http comes in through express). */
const SERVED = ['node-http', 'express', 'kysely'] as const;

/** The manifest layout before @sessauth/core became a peer: a plain dependency on `^<version>`. */
function coreAsDependency(manifest: PackedManifest): PackedManifest {
  const { '@sessauth/core': _peer, ...peers } = manifest.peerDependencies ?? {};
  return {
    ...manifest,
    dependencies: { ...manifest.dependencies, '@sessauth/core': `^${manifest.version}` },
    peerDependencies: peers,
  };
}

export interface SkewRegistries {
  /** What a registry would hold with the manifests as they were (core a dependency). */
  readonly before: readonly string[];
  /** ...and with the manifests as packed now (core a peer). */
  readonly now: readonly string[];
}

/** Tarballs for two registries: core 0.1.0 and 0.2.0, and node-http, express and kysely at 0.1.0. */
export async function skewRegistries(packed: PackedWorkspace, scratch: string): Promise<SkewRegistries> {
  const core020 = join(scratch, 'sessauth-core-next.tgz');
  await rewriteTarball(packed.core, core020, (manifest) => ({ ...manifest, version: SKEWED_APP['@sessauth/core'] }));
  const before: string[] = [packed.core, core020];
  for (const name of SERVED) {
    const legacy = join(scratch, `sessauth-${name}-before.tgz`);
    await rewriteTarball(packed[name], legacy, coreAsDependency);
    before.push(legacy);
  }
  return { before, now: [packed.core, core020, ...SERVED.map((name) => packed[name])] };
}
