import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appLegs } from '../src/app-legs.js';
import { TYPE_SETUPS, writeConsumer } from '../src/app-files.js';
import { installBase } from '../src/base-install.js';
import { expectPackedManifest } from '../src/expect-manifest.js';
import { installedCopies } from '../src/npm.js';
import { PUBLIC_PACKAGES, WORKSPACE_ROOT, packWorkspace, publishDryRun, type PackedWorkspace } from '../src/pack-workspace.js';
import { peerVariants, type PeerVariant } from '../src/peer-variants.js';
import { prepareApp, type PreparedApp } from '../src/prepare-app.js';
import { startApp, type Leg, type RunningApp } from '../src/start-app.js';
import { releasePlanFor } from '../src/release-plan.js';
import { runCommand } from '../src/run-command.js';
import { npmRegistryUrl, reachDataServices, reachNpmRegistry } from '../src/services.js';
import { login, sessionRoundTrip } from '../src/session-flow.js';
import { dropSessionTable, observeVersionSkew } from '../src/skew-scenario.js';
import { listTarball, readPackedManifest, readTarballFile, type PackedManifest } from '../src/tarball.js';

/** Installed bases, npm's download cache and built addons stay here between runs. */
const CACHE = join(tmpdir(), 'sessauth-packaging');
const registry = await reachNpmRegistry(await npmRegistryUrl());
const services = registry === null ? { postgres: null, mysql: null, redis: null } : await reachDataServices();

const workspaceManifests = PUBLIC_PACKAGES.map(
  (name) => JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'packages', name, 'package.json'), 'utf8')) as PackedManifest,
);
const PEER_VARIANTS = peerVariants(workspaceManifests);
/** The skewed app's base: Express on SQLite, with neither optional peer of the core. */
const MINIMAL: PeerVariant = { name: 'minimal', dependencies: { express: '*', kysely: '*', 'better-sqlite3': '*' } };

// The second Node line (CI installs Node 24, issue 27.13): the newest app, installed by npm under
// this Node, run by the other one. better-sqlite3 is built for one Node ABI, so the SQLite legs
// stay on this line; every other addon the app loads (@node-rs/argon2, Prisma's engine) is Node-API.
const SECOND_NODE = process.env.SESSAUTH_SECOND_NODE || undefined;
const SECOND_NODE_VERSION = SECOND_NODE === undefined ? '' : spawnSync(SECOND_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
// Its own tables, keys and schema: the first line's process created the others and still serves them.
const portableLegs = (legs: readonly Leg[]): Leg[] =>
  legs
    .filter((leg) => !leg.url?.startsWith('sqlite:'))
    .map((leg) => ({
      ...leg,
      ...(leg.tableName === undefined ? {} : { tableName: `${leg.tableName}_n2` }),
      ...(leg.keyPrefix === undefined ? {} : { keyPrefix: `${leg.keyPrefix}n2:` }),
      ...(leg.schema === undefined ? {} : { schema: `${leg.schema}_n2` }),
    }));
if (registry !== null && SECOND_NODE === undefined)
  console.log('\n!!! SKIPPED: the packed app on the second Node line (SESSAUTH_SECOND_NODE is not set; CI runs it on Node 24). !!!');

describe.skipIf(registry === null)('the packages as a user installs them', () => {
  const run = mkdtempSync(join(tmpdir(), 'sessauth-packaging-run-'));
  const legs = new Map(
    PEER_VARIANTS.map((v) => [v.name, { esm: appLegs(join(run, v.name), 'esm', services), cjs: appLegs(join(run, v.name), 'cjs', services) }]),
  );
  const apps = new Map<string, Promise<PreparedApp>>();
  let skew: ReturnType<typeof observeVersionSkew>;
  let packed: PackedWorkspace;

  beforeAll(async () => {
    // Everything that can overlap does: the third-party installs need no tarball of
    // ours, and the apps of both variants and the skewed app install side by side.
    const bases = new Map([...PEER_VARIANTS, MINIMAL].map((v) => [v.name, installBase(CACHE, v)]));
    for (const base of bases.values()) base.catch(() => {}); // reported by the test that awaits it
    mkdirSync(join(run, 'tarballs'));
    packed = await packWorkspace(join(run, 'tarballs'));
    for (const v of PEER_VARIANTS) apps.set(v.name, prepareApp(CACHE, bases.get(v.name)!, join(run, v.name), packed, legs.get(v.name)!));
    skew = observeVersionSkew(CACHE, bases.get(MINIMAL.name)!, packed, run);
    for (const pending of [...apps.values(), skew]) pending.catch(() => {});
  });
  afterAll(async () => {
    for (const app of apps.values())
      await app.then(
        (a) => a.stop(),
        () => {},
      );
    rmSync(run, { recursive: true, force: true });
  });

  describe('the packed manifests', () => {
    it.each(PUBLIC_PACKAGES)('@sessauth/%s: real ranges, no source condition, the LICENSE', async (name) => {
      const files = await listTarball(packed[name]);
      expectPackedManifest(await readPackedManifest(packed[name]), workspaceManifests[PUBLIC_PACKAGES.indexOf(name)]!, files);
      expect(files).toContain('LICENSE');
      expect(await readTarballFile(packed[name], 'LICENSE')).toContain('Copyright (c) 2026 the sessauth authors');
    });

    it('adapters and stores take @sessauth/core as a peer; the core takes both argon2 hashers and mmdb-lib as optional peers', async () => {
      for (const name of PUBLIC_PACKAGES.filter((n) => n !== 'core' && n !== 'client')) {
        const manifest = await readPackedManifest(packed[name]);
        expect(manifest.dependencies?.['@sessauth/core'], name).toBeUndefined();
        expect(semver.satisfies('0.1.0', manifest.peerDependencies?.['@sessauth/core'] ?? ''), name).toBe(true);
      }
      const core = await readPackedManifest(packed.core);
      expect(core.dependencies?.['@node-rs/argon2']).toBeUndefined();
      expect(core.dependencies?.['mmdb-lib']).toBeUndefined();
      expect(core.dependencies?.['argon2-wasm-edge']).toBeUndefined();
      expect(core.peerDependenciesMeta).toEqual({
        '@node-rs/argon2': { optional: true },
        'argon2-wasm-edge': { optional: true },
        'mmdb-lib': { optional: true },
      });
      expect(semver.satisfies('6.0.0', (await readPackedManifest(packed.redis)).peerDependencies?.ioredis ?? '')).toBe(true);
      // OpenTelemetry is the host's choice: the core names no part of it, its package takes the API as a peer.
      expect(JSON.stringify(core)).not.toContain('@opentelemetry');
      const opentelemetry = await readPackedManifest(packed.opentelemetry);
      expect(opentelemetry.dependencies?.['@opentelemetry/api']).toBeUndefined();
      expect(semver.satisfies('1.9.0', opentelemetry.peerDependencies?.['@opentelemetry/api'] ?? '')).toBe(true);
      expect(semver.satisfies('4.0.0', (await readPackedManifest(packed.conformance)).peerDependencies?.vitest ?? '')).toBe(true);
    });

    it('the minified build of the browser client is exported for pages without a bundler, and loads', async () => {
      const manifest = await readPackedManifest(packed.client);
      expect(manifest.exports).toMatchObject({ './sessauth-client.min.js': { default: './dist/sessauth-client.min.js' } });
      const file = join(run, 'sessauth-client.min.mjs');
      writeFileSync(file, await readTarballFile(packed.client, 'dist/sessauth-client.min.js'));
      const module = (await import(pathToFileURL(file).href)) as { createSessauthClient?: unknown };
      expect(typeof module.createSessauthClient).toBe('function');
    });

    it('every packed package passes `npm publish --dry-run` with its build, README and LICENSE', async () => {
      const reports = await publishDryRun(packed);
      for (const [index, name] of PUBLIC_PACKAGES.entries()) {
        const report = reports[index]!;
        expect(report.name).toBe(`@sessauth/${name}`);
        expect(report.version).toBe(workspaceManifests[index]!.version);
        expect(report.files, name).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
        expect(
          report.files.some((file) => file.startsWith('dist/')),
          `${name} ships its build`,
        ).toBe(true);
      }
    });

    it('a minor release of the core releases every package one minor up, not 1.0.0 (peer dependents are not majored)', async () => {
      const plan = await releasePlanFor({ '@sessauth/core': 'minor' });
      expect(plan.map((release) => release.name).sort()).toEqual(PUBLIC_PACKAGES.map((name) => `@sessauth/${name}`).sort());
      for (const release of plan) expect(release.newVersion, release.name).toBe(semver.inc(release.oldVersion, 'minor'));
    });
  });

  describe.each(PEER_VARIANTS)('npm install at the $name peers', (variant) => {
    let app: PreparedApp;
    beforeAll(async () => {
      app = await apps.get(variant.name)!;
    });

    it('has one copy of @sessauth/core, and every peer at the version asked for', async () => {
      expect(await installedCopies(CACHE, app.dir, '@sessauth/core')).toEqual(['0.1.0']);
      const lock = JSON.parse(readFileSync(join(app.dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
      for (const [name, spec] of Object.entries(variant.dependencies)) {
        const installed = lock.packages[`node_modules/${name}`]?.version;
        expect(installed !== undefined && semver.satisfies(installed, spec), `${name}@${installed} for ${spec}`).toBe(true);
      }
    });

    for (const system of ['esm', 'cjs'] as const) {
      for (const leg of legs.get(variant.name)![system]) {
        it.concurrent(`${system}: ${leg.framework} on ${leg.store}: login, refresh, /me; a replayed refresh token is refused`, async () => {
          const baseUrl = app.running.get(system)!.baseUrls.get(leg.id)!;
          const trip = await sessionRoundTrip(baseUrl);
          expect(trip.login.status).toBe(200);
          expect(trip.refresh.status).toBe(200);
          expect(trip.refresh.body?.refresh_token).not.toBe(trip.login.body?.refresh_token);
          expect(trip.me).toMatchObject({ status: 200, body: { user: { id: 'user-alice', username: 'alice' } } });
          expect(trip.replay).toMatchObject({ status: 401, body: { error_code: 'token_reuse_detected' } });
          if (!leg.url?.startsWith('sqlite:')) return;
          // The store's StoreUnavailableError must be the engine's own class: one core, so 503, not 500.
          dropSessionTable(leg.url.slice('sqlite:'.length));
          expect(await login(baseUrl)).toMatchObject({ status: 503, body: { error_code: 'service_unavailable' } });
        });
      }
    }

    // Which of our declaration files a setup reads does not depend on the peers' versions:
    // the lowest peers are checked under the strictest setup only (tsc costs ~10 s of CPU each).
    const setups = variant.name === 'newest' ? TYPE_SETUPS : TYPE_SETUPS.filter((setup) => setup.file === 'consumer.mts');
    it.concurrent.each(setups)('a TypeScript consumer typechecks against the installed declarations ($name)', async (setup) => {
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      const tsconfig = writeConsumer(app.dir)[TYPE_SETUPS.indexOf(setup)]!;
      const result = await runCommand(process.execPath, [tsc, '-p', tsconfig], { cwd: app.dir, allowFailure: true });
      expect(result.stdout + result.stderr).toBe('');
      expect(result.code).toBe(0);
    });

    it('the conformance kit passes under the vitest the app installed', async () => {
      const vitest = join(app.dir, 'node_modules', 'vitest', 'vitest.mjs');
      const result = await runCommand(process.execPath, [vitest, 'run', 'kit.test.mjs'], { cwd: app.dir, allowFailure: true });
      const output = (result.stdout + result.stderr).replace(/\u001b\[[0-9;]*m/g, '');
      expect(result.code, output).toBe(0);
      expect(output).toMatch(/Tests\s+[1-9]\d* passed/);
      expect(output).not.toMatch(/\d+ failed/);
    });
  });

  describe.skipIf(SECOND_NODE === undefined)(`the newest app, run by Node ${SECOND_NODE_VERSION}`, () => {
    const running = new Map<'esm' | 'cjs', RunningApp>();
    beforeAll(async () => {
      const app = await apps.get('newest')!;
      for (const system of ['esm', 'cjs'] as const)
        running.set(system, await startApp(app.dir, system, portableLegs(app.legs[system]), { SESSAUTH_APP_IMPORT_MMDB: '1' }, SECOND_NODE));
    });
    afterAll(async () => {
      for (const app of running.values()) await app.stop();
    });

    it('is that Node line, not this one', () => {
      expect(SECOND_NODE_VERSION).toMatch(/^v\d+\./);
      expect(SECOND_NODE_VERSION).not.toBe(process.version);
    });

    for (const system of ['esm', 'cjs'] as const) {
      for (const leg of portableLegs(legs.get('newest')![system])) {
        it.concurrent(`${system}: ${leg.framework} on ${leg.store}: login, refresh, /me; a replayed refresh token is refused`, async () => {
          const trip = await sessionRoundTrip(running.get(system)!.baseUrls.get(leg.id)!);
          expect(trip.login.status).toBe(200);
          expect(trip.refresh.status).toBe(200);
          expect(trip.me).toMatchObject({ status: 200, body: { user: { id: 'user-alice', username: 'alice' } } });
          expect(trip.replay).toMatchObject({ status: 401, body: { error_code: 'token_reuse_detected' } });
        });
      }
    }
  });

  describe('an app that upgraded @sessauth/core to 0.2.0 and kept its adapter and store at 0.1.0', () => {
    it('had two copies of the core when it was a dependency, and a store fault answered 500', async () => {
      const { before } = await skew;
      expect(new Set(before.coreCopies)).toEqual(new Set(['0.1.0', '0.2.0']));
      expect(before.login.status).toBe(200);
      expect(before.loginDuringFault).toMatchObject({ status: 500, body: { error_code: 'internal_error' } });
    });

    it('has one copy now that the core is a peer, a store fault answers 503, and no optional peer was installed', async () => {
      const { now } = await skew;
      expect(now.coreCopies).toEqual(['0.2.0']);
      expect(now.argon2Copies).toEqual([]);
      expect(now.login.status).toBe(200);
      expect(now.loginDuringFault).toMatchObject({ status: 503, body: { error_code: 'service_unavailable' } });
    });
  });
});
