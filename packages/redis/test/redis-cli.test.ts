import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { newSessionFixture } from '@sessauth/conformance';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { RedisSessionStore } from '../src/index.js';
import { deleteByPrefix, randomPrefix, reachLocalRedis, REDIS_URL } from './redis-test-kit.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const version = (JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')) as { version: string }).version;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs src/cli.ts the way an operator runs the bin, through tsx (no build needed). */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const nodeArgs = ['--conditions=@sessauth/source', '--import', 'tsx', 'src/cli.ts', ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, nodeArgs, { cwd: packageDir, env: { ...process.env, REDIS_URL: '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
    });
  });
}

const redis: Redis | null = await reachLocalRedis();
const prefixes = [randomPrefix(), randomPrefix()] as const;

describe.skipIf(redis === null)('sessauth-redis CLI against the local Redis', () => {
  afterAll(async () => {
    for (const prefix of prefixes) await deleteByPrefix(redis!, prefix);
    redis!.disconnect();
  });

  const stores = prefixes.map((keyPrefix) => new RedisSessionStore({ client: redis!, keyPrefix }));
  const [mine, other] = stores as [RedisSessionStore, RedisSessionStore];
  const active = newSessionFixture();
  const revoked = [newSessionFixture(), newSessionFixture()];
  const otherRevoked = newSessionFixture();
  beforeAll(async () => {
    const past = new Date(Date.now() - 1000);
    for (const session of [active, ...revoked]) await mine.createSession({ session, maxActiveSessions: 5 });
    for (const session of revoked) await mine.expireSession(session.id, session.userId, past);
    await other.createSession({ session: otherRevoked, maxActiveSessions: 5 });
    await other.expireSession(otherRevoked.id, otherRevoked.userId, past);
  });

  it.concurrent('purge deletes the revoked sessions under --prefix only, and keeps active ones', async ({ expect }) => {
    const run = await runCli(['purge', '--prefix', prefixes[0]], { REDIS_URL });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(`sessauth-redis: purged 2 sessions under prefix ${JSON.stringify(prefixes[0])}\n`);
    expect(await mine.findSession(active.id)).not.toBeNull();
    for (const session of revoked) expect(await mine.findSession(session.id)).toBeNull();
    // Another prefix (another app on the same Redis) is untouched.
    expect(await other.findSession(otherRevoked.id)).not.toBeNull();
    const again = await runCli(['purge', '--url', REDIS_URL, '--prefix', prefixes[0], '--bogus']);
    expect(again).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--bogus'") });
  }, 60_000);

  // Independent of the keys above: run beside the purge test (tsx start-up dominates each process).
  it.concurrent('--version prints the package version; --help the usage; usage errors exit 2', async ({ expect }) => {
    // One process each, started together: tsx start-up dominates, and they are independent.
    const [long, short, help, bare, noUrl, unknown, postgresUrl, noScheme] = await Promise.all([
      runCli(['--version']),
      runCli(['-v']),
      runCli(['--help']),
      runCli([]),
      runCli(['purge']),
      runCli(['flush', '--url', REDIS_URL]),
      runCli(['purge', '--url', 'pg://x']),
      runCli(['purge', '--url', '127.0.0.1:6379']),
    ]);
    expect(long).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(short).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('rediss://');
    expect(bare.code).toBe(2);
    expect(noUrl).toMatchObject({ code: 2, stderr: expect.stringContaining('--url is required (or set REDIS_URL)') });
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command: flush') });
    expect(postgresUrl).toMatchObject({ code: 2, stderr: expect.stringContaining('--url must start with redis:// or rediss:// (got pg:)') });
    expect(noScheme).toMatchObject({ code: 2, stderr: expect.stringContaining('--url must start with redis:// or rediss://') });
  }, 90_000);

  it.concurrent('an unreachable server exits 1 naming host, port and the scheme, never the password or a stack', async ({ expect }) => {
    const run = await runCli(['purge', '--url', 'redis://ops:hunter2@127.0.0.1:1/0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^sessauth-redis: redis: could not connect to 127\.0\.0\.1:1 \(connect ECONNREFUSED 127\.0\.0\.1:1\)/);
    expect(run.stderr).toContain('a TLS server needs rediss://');
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
