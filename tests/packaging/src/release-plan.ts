import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getReleasePlan from '@changesets/get-release-plan';
import { WORKSPACE_ROOT } from './pack-workspace.js';

export interface PlannedRelease {
  readonly name: string;
  readonly oldVersion: string;
  readonly newVersion: string;
}

/** Every workspace manifest, as pnpm-workspace.yaml finds them (one level under each folder). */
function workspaceManifests(): string[] {
  const manifests = ['package.json'];
  for (const folder of ['packages', 'examples', 'tests']) {
    for (const entry of readdirSync(join(WORKSPACE_ROOT, folder))) {
      if (existsSync(join(WORKSPACE_ROOT, folder, entry, 'package.json'))) manifests.push(join(folder, entry, 'package.json'));
    }
  }
  if (existsSync(join(WORKSPACE_ROOT, 'bench', 'package.json'))) manifests.push(join('bench', 'package.json'));
  return manifests;
}

/**
 * What `changeset version` would release for one changeset `{ package: bump }`, computed
 * by changesets itself over a copy of the workspace's manifests and .changeset/config.json
 * (the pending changesets of the repository stay out of it).
 */
export async function releasePlanFor(changeset: Readonly<Record<string, 'patch' | 'minor' | 'major'>>): Promise<PlannedRelease[]> {
  const copy = mkdtempSync(join(tmpdir(), 'sessauth-release-plan-'));
  try {
    for (const manifest of [...workspaceManifests(), 'pnpm-workspace.yaml', join('.changeset', 'config.json')]) {
      mkdirSync(join(copy, manifest, '..'), { recursive: true });
      copyFileSync(join(WORKSPACE_ROOT, manifest), join(copy, manifest));
    }
    const frontMatter = Object.entries(changeset)
      .map(([name, bump]) => `"${name}": ${bump}`)
      .join('\n');
    writeFileSync(join(copy, '.changeset', 'probe.md'), `---\n${frontMatter}\n---\n\nA probe.\n`);
    const plan = await getReleasePlan(copy);
    return plan.releases.filter((release) => release.type !== 'none');
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
