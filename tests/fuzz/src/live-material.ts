import type { Material } from './raw-request.js';

/** A CSRF cookie secret and its masked token, from `GET /auth/csrf/` (they stay valid: the secret never rotates). */
export async function csrfPair(port: number): Promise<Pick<Material, 'csrfSecret' | 'csrfToken'>> {
  const csrf = await fetch(`http://127.0.0.1:${port}/auth/csrf/`);
  const cookie = csrf.headers.getSetCookie().find((line) => line.startsWith('csrftoken='));
  const { csrf_token: csrfToken } = (await csrf.json()) as { csrf_token: string };
  return { csrfSecret: cookie?.slice('csrftoken='.length).split(';')[0] ?? '', csrfToken };
}

/**
 * Fresh credentials from the app itself: a login with the CSRF pair. Generated requests
 * refer to them by placeholder, so the fuzz reaches the refresh, guarded and delete
 * paths, not only the refusals. Each case logs in anew: its own replays and logouts
 * revoke the session it was handed.
 */
export async function liveMaterial(port: number, csrf: Pick<Material, 'csrfSecret' | 'csrfToken'>): Promise<Material> {
  const login = await fetch(`http://127.0.0.1:${port}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `csrftoken=${csrf.csrfSecret}`, 'x-csrftoken': csrf.csrfToken },
    body: JSON.stringify({ username: 'alice', password: 'alice-password' }),
  });
  if (login.status !== 200) throw new Error(`the fuzz app refused the set-up login: ${login.status}`);
  const { access_token: access, refresh_token: refresh } = (await login.json()) as { access_token: string; refresh_token: string };
  const claims = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string };
  return { ...csrf, access, refresh, sessionId: claims.sid };
}
