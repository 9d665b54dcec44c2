import { randomBytes } from 'node:crypto';
import { reachService } from '@sessauth/conformance';
import type { Clock } from '@sessauth/core';
import { RedisSessionStore, createRedisClient } from '@sessauth/redis';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { demoUsers } from '../src/example-server.js';
import { startInProcessServer, type InProcessServer } from '../src/failover/in-process-server.js';
import { send } from '../src/wire.js';

// Issue 26, point 5: two instances of one deployment on one Redis, one of them with its clock
// SKEW_SECONDS ahead. Tokens carry times (iat, exp) that the other instance checks against its own
// clock; the session's state (revoked, rotated) lives in the store and does not depend on clocks.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SKEW_SECONDS = 3;
const ahead: Clock = { now: () => new Date(Date.now() + SKEW_SECONDS * 1000) };
const LIMIT_MS = 10_000;
const IP = '198.51.100.77';

const client = await reachService<Redis>(`Redis at ${REDIS_URL}`, () => createRedisClient(REDIS_URL));

/** Instance A (clock ahead) and instance B (true clock) on one store prefix, with this leeway. */
async function pair(
  leewaySeconds: number,
  started: InProcessServer[],
): Promise<{ a: InProcessServer; b: InProcessServer; user: { username: string; password: string } }> {
  if (client === null) throw new Error('unreachable');
  const users = demoUsers(1);
  const secret = randomBytes(48).toString('base64url');
  const keyPrefix = `sessauth-test:skew:${randomBytes(6).toString('hex')}:`;
  const instance = (clock: Clock | undefined) =>
    startInProcessServer({
      store: new RedisSessionStore({ client, keyPrefix }),
      users,
      secret,
      options: { leewaySeconds },
      ...(clock === undefined ? {} : { clock }),
    });
  const a = await instance(ahead);
  const b = await instance(undefined);
  started.push(a, b);
  return { a, b, user: users[0]! };
}

async function login(server: InProcessServer, user: { username: string; password: string }) {
  const answer = await send(server.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip: IP }, LIMIT_MS);
  expect(answer.status).toBe(200);
  return answer.issued!;
}

const me = (server: InProcessServer, access: string) => send(server.baseUrl, { method: 'GET', path: '/me', access, ip: IP }, LIMIT_MS);
const refresh = (server: InProcessServer, token: string) =>
  send(server.baseUrl, { method: 'POST', path: '/auth/refresh/', json: { refresh_token: token }, ip: IP }, LIMIT_MS);

describe.skipIf(client === null)(`two instances on one store, one clock ${SKEW_SECONDS} s ahead`, () => {
  const started: InProcessServer[] = [];
  afterAll(async () => {
    await Promise.all(started.map((server) => server.stop()));
    client?.disconnect();
  });

  it('JWT_LEEWAY_SECONDS=0 (the default): the instance behind refuses tokens the other just issued (iat in its future)', async () => {
    const { a, b, user } = await pair(0, started);
    const tokens = await login(a, user);
    // Issued "3 s from now" as B sees it: not a valid token yet, for the access and the refresh token alike.
    expect(await me(b, tokens.access)).toMatchObject({ status: 401, code: 'invalid_token' });
    expect(await refresh(b, tokens.refresh)).toMatchObject({ status: 401, code: 'invalid_token' });
    // The instance that issued them accepts them: the refusal is the skew, not the tokens.
    expect(await me(a, tokens.access)).toMatchObject({ status: 200 });
  });

  it('JWT_LEEWAY_SECONDS at or above the skew: either instance serves, rotates and revokes the other one’s sessions', async () => {
    const { a, b, user } = await pair(SKEW_SECONDS + 2, started);
    const first = await login(a, user);
    expect(await me(b, first.access)).toMatchObject({ status: 200 });
    // Rotated on B (its clock behind), used on A (its clock ahead), and the other way round.
    const second = await refresh(b, first.refresh);
    expect(second.status).toBe(200);
    expect(await me(a, second.issued!.access)).toMatchObject({ status: 200 });
    // Reuse is detected whichever instance sees the replay: the rotation is store state, not time.
    expect(await refresh(a, first.refresh)).toMatchObject({ status: 401, code: 'token_reuse_detected' });
    expect(await me(b, second.issued!.access)).toMatchObject({ status: 401 });

    // A revocation on one instance is seen by the other at once, clocks notwithstanding.
    const third = await login(b, user);
    const logout = await send(a.baseUrl, { method: 'POST', path: '/auth/logout/', json: {}, access: third.access, ip: IP }, LIMIT_MS);
    expect(logout.status).toBe(200);
    expect(await me(b, third.access)).toMatchObject({ status: 401 });
  });
});
