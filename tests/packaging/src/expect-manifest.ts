import semver from 'semver';
import { expect } from 'vitest';
import type { PackedManifest } from './tarball.js';

/** Every file an `exports` map points at, without the leading `./`. */
export function exportTargets(exportsField: unknown): string[] {
  if (typeof exportsField === 'string') return [exportsField.replace(/^\.\//, '')];
  if (typeof exportsField !== 'object' || exportsField === null) return [];
  return Object.values(exportsField).flatMap(exportTargets);
}

/**
 * A packed manifest is what `pnpm publish` would upload: no workspace or catalog
 * protocol left, the exports map of `publishConfig` (without the source condition,
 * whose TypeScript files are not in the tarball; only a development script may still
 * name it), the peers as declared, and every range one npm can read.
 */
export function expectPackedManifest(packed: PackedManifest, workspace: PackedManifest, files: readonly string[]): void {
  const text = JSON.stringify(packed);
  expect(text).not.toContain('workspace:');
  expect(text).not.toContain('catalog:');
  for (const field of ['exports', 'main', 'module', 'types'] as const)
    expect(JSON.stringify(packed[field] ?? null), field).not.toContain('@sessauth/source');
  expect(packed.publishConfig).toBeUndefined();
  expect(packed.exports).toEqual((workspace.publishConfig as { exports?: unknown } | undefined)?.exports);
  for (const target of exportTargets(packed.exports)) expect(files, `exports → ${target}`).toContain(target);
  for (const [name, range] of Object.entries(workspace.peerDependencies ?? {})) {
    expect(packed.peerDependencies?.[name], name).toBe(range.replace(/^workspace:/, ''));
  }
  for (const field of ['dependencies', 'peerDependencies', 'devDependencies'] as const) {
    for (const [name, range] of Object.entries(packed[field] ?? {})) expect(semver.validRange(range), `${field}.${name}: ${range}`).not.toBeNull();
  }
}
