import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteFile } from './app-legs.js';
import { writeServers } from './app-files.js';
import { installApp } from './install-app.js';
import { startScopedRegistry } from './local-registry.js';
import { installedCopies } from './npm.js';
import type { PackedWorkspace } from './pack-workspace.js';
import { login, type Answer } from './session-flow.js';
import { startApp, type Leg } from './start-app.js';
import { SKEWED_APP, skewRegistries } from './version-skew.js';

/** A store fault from outside an app: its SQLite file loses the session table. */
export function dropSessionTable(file: string): void {
  const db = new Database(file);
  try {
    db.exec('drop table sessauth_session');
  } finally {
    db.close();
  }
}

/** What the skewed app showed: the copies npm installed, and a login before and during a store fault. */
export interface SkewedAppObservation {
  readonly coreCopies: readonly string[];
  readonly argon2Copies: readonly string[];
  readonly login: Answer;
  readonly loginDuringFault: Answer;
}

/**
 * Installs SKEWED_APP from a registry holding `tarballs` onto the base (Express, Kysely,
 * better-sqlite3; neither optional peer of the core), serves Express on SQLite with the
 * app's own password hasher, signs in, breaks the store, signs in again.
 */
async function observeSkewedApp(cacheRoot: string, base: string, app: string, tarballs: readonly string[]): Promise<SkewedAppObservation> {
  const registry = await startScopedRegistry(tarballs);
  try {
    await installApp(cacheRoot, base, app, { dependencies: SKEWED_APP, npmrc: [`@sessauth:registry=${registry.url}`] });
  } finally {
    await registry.close();
  }
  writeServers(app);
  const file = sqliteFile(app, 'esm', 'express');
  const leg: Leg = { id: 'express-sqlite', framework: 'express', store: 'sqlite', hasher: 'scrypt', url: `sqlite:${file}` };
  const server = await startApp(app, 'esm', [leg]);
  try {
    const baseUrl = server.baseUrls.get(leg.id)!;
    const first = await login(baseUrl);
    dropSessionTable(file);
    return {
      coreCopies: await installedCopies(cacheRoot, app, '@sessauth/core'),
      argon2Copies: await installedCopies(cacheRoot, app, '@node-rs/argon2'),
      login: first,
      loginDuringFault: await login(baseUrl),
    };
  } finally {
    await server.stop();
  }
}

/** The same app installed twice: with the manifests as they were (core a dependency) and as they are now. */
export async function observeVersionSkew(cacheRoot: string, base: Promise<string>, packed: PackedWorkspace, run: string) {
  const registries = await skewRegistries(packed, run);
  const [before, now] = await Promise.all([
    observeSkewedApp(cacheRoot, await base, join(run, 'skew-before'), registries.before),
    observeSkewedApp(cacheRoot, await base, join(run, 'skew-now'), registries.now),
  ]);
  return { before, now };
}
