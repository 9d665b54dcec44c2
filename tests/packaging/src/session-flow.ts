/** What a client saw: a status and the JSON body (or null). */
export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown> | null;
}

/** The password the app seeds for alice (fixtures/app/serve.js). */
export const ALICE_PASSWORD = 'correct horse battery staple';

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
}

function postJson(url: string, body: unknown): Promise<Answer> {
  return call(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export function login(baseUrl: string): Promise<Answer> {
  return postJson(`${baseUrl}/auth/login/`, { username: 'alice', password: ALICE_PASSWORD });
}

/** The whole round trip of a body-transport client over a real socket. */
export interface SessionRoundTrip {
  readonly login: Answer;
  readonly refresh: Answer;
  readonly me: Answer;
  /** The first refresh token presented again: refresh tokens are single-use. */
  readonly replay: Answer;
}

export async function sessionRoundTrip(baseUrl: string): Promise<SessionRoundTrip> {
  const first = await login(baseUrl);
  const refreshToken = first.body?.refresh_token;
  const refresh = await postJson(`${baseUrl}/auth/refresh/`, { refresh_token: refreshToken });
  const me = await call(`${baseUrl}/me`, { headers: { authorization: `Bearer ${String(refresh.body?.access_token)}` } });
  const replay = await postJson(`${baseUrl}/auth/refresh/`, { refresh_token: refreshToken });
  return { login: first, refresh, me, replay };
}
