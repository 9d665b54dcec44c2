import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { npm } from './npm.js';

/** Where better-sqlite3 looks for its addon (through `bindings`). */
const ADDON = join('build', 'Release', 'better_sqlite3.node');

/**
 * The apps install with `--ignore-scripts` (no dependency runs code at install time),
 * then get better-sqlite3's addon from, in order: the cache of addons built before
 * (keyed by version, platform and Node ABI), the workspace's own build when it is the
 * same version (what `node-gyp rebuild` would produce again), else its install script
 * (`prebuild-install || node-gyp rebuild`), whose result is cached. That build is
 * unoptimised (-O0: a third of the compiler's time, the same SQLite code): the tests
 * exercise the binding, not its speed. After it, every run reuses it.
 */
export async function provideSqliteAddon(cacheRoot: string, app: string): Promise<void> {
  const packageDir = join(app, 'node_modules', 'better-sqlite3');
  if (!existsSync(packageDir)) return;
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const target = join(packageDir, ADDON);
  const cached = join(cacheRoot, 'native', `better-sqlite3-${version}-${process.platform}-${process.arch}-abi${process.versions.modules}.node`);
  mkdirSync(dirname(cached), { recursive: true });
  if (!existsSync(cached)) {
    const workspaceBuild = workspaceAddon(version);
    if (workspaceBuild !== null) {
      copyFileSync(workspaceBuild, cached);
    } else {
      await npm(cacheRoot, app, ['rebuild', 'better-sqlite3', '--foreground-scripts'], false, { CFLAGS: '-O0', CXXFLAGS: '-O0' });
      copyFileSync(target, cached);
      return;
    }
  }
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(cached, target);
}

function workspaceAddon(version: string): string | null {
  try {
    const manifest = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
    const installed = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    const addon = join(dirname(manifest), ADDON);
    return installed.version === version && existsSync(addon) ? addon : null;
  } catch {
    return null;
  }
}
