import { expect } from 'vitest';

export const EXAMPLE_ENV = {
  JWT_SECRET_KEY: 'an-example-secret-of-at-least-thirty-two-bytes-0123456789',
  JWT_ISSUER: 'https://auth.example.test',
  JWT_AUDIENCE: 'example-api',
  SESSAUTH_DEMO_USERS: 'alice:correct-horse-battery',
  JWT_LOGIN_THROTTLE_RATE: '3/min',
};

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/**
 * What a user of an example does: log in, call the guarded route, see the session listed with
 * the client address the runtime reported, refresh, and get throttled after three bad passwords.
 */
export async function exerciseExample(base: string): Promise<void> {
  const login = await post(`${base}/auth/login/`, { username: 'alice', password: 'correct-horse-battery' });
  expect(login.status).toBe(200);
  const tokens = (await login.json()) as { access_token: string; refresh_token: string };
  const bearer = { authorization: `Bearer ${tokens.access_token}` };

  const me = await fetch(`${base}/me`, { headers: bearer });
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ user: { username: 'alice' } });
  expect((await fetch(`${base}/me`)).status).toBe(401);

  const sessions = (await (await fetch(`${base}/auth/sessions/`, { headers: bearer })).json()) as Array<{ ip_address: unknown }>;
  expect(sessions.map((session) => session.ip_address)).toEqual(['127.0.0.1']);

  const refreshed = await post(`${base}/auth/refresh/`, { refresh_token: tokens.refresh_token });
  expect(refreshed.status).toBe(200);
  expect((await post(`${base}/auth/refresh/`, { refresh_token: tokens.refresh_token })).status).toBe(401);

  const wrong = () => post(`${base}/auth/login/`, { username: 'alice', password: 'wrong' });
  // One good login above plus two bad ones fill the 3/min budget of this address.
  expect([(await wrong()).status, (await wrong()).status, (await wrong()).status]).toEqual([401, 401, 429]);
}
