// Packs every public package into one folder, as `pnpm publish` would upload them, for
// installing sessauth before (or without) a release: `pnpm pack:packages [folder]`
// (default `tarballs/`), then `npm install <folder>/sessauth-core-0.1.0.tgz ...` in your app.
// The packaging tests install what this script makes (tests/packaging/src/pack-workspace.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const destination = resolve(process.argv[2] ?? join(root, 'tarballs'));

/** The public packages: every package under packages/ that is not private. */
const packages = readdirSync(join(root, 'packages')).filter((name) => {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
  return manifest.private !== true;
});

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`pack-packages: \`${command} ${args.join(' ')}\` failed in ${cwd}`);
    process.exit(result.status ?? 1);
  }
}

// pnpm on PATH (as under `pnpm pack:packages`), else the version package.json pins, through npx.
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
const pnpmOnPath = spawnSync('pnpm', ['--version'], { stdio: 'ignore' }).status === 0;
const pnpmRun = (args, cwd) => (pnpmOnPath ? run('pnpm', args, cwd) : run('npx', ['--yes', '-p', pinned, 'pnpm', ...args], cwd));

rmSync(destination, { recursive: true, force: true });
mkdirSync(destination, { recursive: true });
pnpmRun(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', ...packages.map((name) => `--filter=./packages/${name}`)], root);
for (const name of packages) pnpmRun(['pack', '--pack-destination', destination], join(root, 'packages', name));

const tarballs = readdirSync(destination).filter((file) => file.endsWith('.tgz'));
console.log(`\n${tarballs.length} packages packed into ${destination}:`);
for (const file of tarballs.sort()) console.log(`  ${file}`);
console.log(
  `\nIn your app, install the ones you use by path, for example:\n  npm install ${join(destination, tarballs.find((f) => f.startsWith('sessauth-core-')) ?? 'sessauth-core-<version>.tgz')} ${join(destination, tarballs.find((f) => f.startsWith('sessauth-express-')) ?? 'sessauth-express-<version>.tgz')}`,
);
