import { writeConsumer, writeKitTest, writeServers, type ModuleSystem } from './app-files.js';
import { installApp, tarballDependencies } from './install-app.js';
import { generatePrismaClient } from './prisma-client.js';
import type { PackedWorkspace } from './pack-workspace.js';
import { startApp, type Leg, type RunningApp } from './start-app.js';

export interface PreparedApp {
  readonly dir: string;
  readonly legs: Readonly<Record<ModuleSystem, readonly Leg[]>>;
  readonly running: ReadonlyMap<ModuleSystem, RunningApp>;
  stop(): Promise<void>;
}

/**
 * One variant's app, ready to be called: every server-side package installed from its
 * tarball onto the variant's base, its Prisma Client generated (when a leg uses Prisma), the
 * ESM and the CommonJS process started (each serving every leg), the consumer file and the
 * kit's test written beside them.
 */
export async function prepareApp(
  cacheRoot: string,
  base: Promise<string>,
  dir: string,
  packed: PackedWorkspace,
  legs: Readonly<Record<ModuleSystem, readonly Leg[]>>,
): Promise<PreparedApp> {
  const { client: _browserOnly, ...serverSide } = packed;
  await installApp(cacheRoot, await base, dir, { dependencies: tarballDependencies(serverSide) });
  if (Object.values(legs).some((system) => system.some((leg) => leg.store === 'prisma-postgres'))) await generatePrismaClient(dir);
  writeServers(dir);
  writeConsumer(dir);
  writeKitTest(dir);
  const running = new Map<ModuleSystem, RunningApp>();
  const stop = async () => {
    for (const app of running.values()) await app.stop();
  };
  try {
    // The mmdb subpath is loaded too: it needs the optional peer the app installed.
    for (const system of ['esm', 'cjs'] as const) running.set(system, await startApp(dir, system, legs[system], { SESSAUTH_APP_IMPORT_MMDB: '1' }));
  } catch (error) {
    await stop();
    throw error;
  }
  return { dir, legs, running, stop };
}
