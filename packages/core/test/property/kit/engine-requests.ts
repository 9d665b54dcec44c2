import type { SessauthRequest, SessauthResponse } from '../../../src/http/sessauth-request.js';
import type { Sessauth } from '../../../src/engine/sessauth.js';

/** A request as an adapter would hand it to the core (lower-case names, every value kept). */
export function engineRequest(init: {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: string;
}): SessauthRequest {
  const headers = new Map<string, string[]>();
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name.toLowerCase(), typeof value === 'string' ? [value] : [...value]);
  const body = new TextEncoder().encode(init.body ?? '');
  return { method: init.method, path: init.path, headers, peerAddress: '127.0.0.1', secure: false, readBody: async () => body };
}

/** POST of a JSON body (body transport: no cookies, no CSRF). */
export function jsonPost(path: string, body: unknown): SessauthRequest {
  return engineRequest({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** A request carrying `Authorization: Bearer <token>`. */
export function bearerRequest(method: string, path: string, token: string): SessauthRequest {
  return engineRequest({ method, path, headers: { authorization: `Bearer ${token}` } });
}

/** Status and `error_code` of a response (the code is undefined on success). */
export interface Answer {
  readonly status: number;
  readonly code: string | undefined;
  readonly json: unknown;
}

export function answerOf(response: SessauthResponse | null): Answer {
  if (response === null) throw new Error('the core did not take a request under its own prefix');
  const json: unknown = response.body === null ? null : JSON.parse(response.body);
  const code = json !== null && typeof json === 'object' && 'error_code' in json ? String(json.error_code) : undefined;
  return { status: response.status, code, json };
}

/** Logs `username` in over the real endpoint and returns the pair (throws unless 200). */
export async function loginTokens<U>(auth: Sessauth<U>, username: string, password: string): Promise<{ access: string; refresh: string }> {
  const answer = answerOf(await auth.handle(jsonPost(`${auth.options.prefix}/login/`, { username, password })));
  const tokens = answer.json as { access_token?: unknown; refresh_token?: unknown };
  if (answer.status !== 200 || typeof tokens.access_token !== 'string' || typeof tokens.refresh_token !== 'string') {
    throw new Error(`login answered ${answer.status} ${answer.code}`);
  }
  return { access: tokens.access_token, refresh: tokens.refresh_token };
}
