import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appManifest } from './base-install.js';
import { npm } from './npm.js';

export interface AppInstall {
  /** The app's dependencies besides the base's: `file:` tarballs or registry versions. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** Lines of the app's .npmrc (a scoped registry). */
  readonly npmrc?: readonly string[];
}

/**
 * A fresh app outside the workspace: a copy of an installed base (its lockfile and
 * node_modules), then `npm install` of the @sessauth packages into it, as a user adds
 * them to a project. Install scripts stay off: ours have none, and the one native
 * dependency was built once for the base.
 */
export async function installApp(cacheRoot: string, base: string, app: string, install: AppInstall): Promise<void> {
  cpSync(base, app, { recursive: true, verbatimSymlinks: true });
  const { dependencies } = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  writeFileSync(join(app, 'package.json'), appManifest({ ...dependencies, ...install.dependencies }));
  if (install.npmrc !== undefined) writeFileSync(join(app, '.npmrc'), `${install.npmrc.join('\n')}\n`);
  await npm(cacheRoot, app, ['install', '--ignore-scripts']);
}

/** The app's `file:` dependencies on the given tarballs. */
export function tarballDependencies(tarballs: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(tarballs).map(([name, path]) => [`@sessauth/${name}`, `file:${path}`]));
}
