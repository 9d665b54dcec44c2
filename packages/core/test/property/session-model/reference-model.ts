/**
 * The reference model of the session state machine: what the contract (README, SPEC)
 * says each request answers, written as plain bookkeeping with no tokens, no store and
 * no crypto. The model-based test drives the real engine and this model side by side
 * and compares every answer and, after every step, every session's revocation.
 */

/** The settings the model is written for (the engine under test gets the same). */
export interface ModelSettings {
  readonly accessSeconds: number;
  readonly refreshSeconds: number;
  /** 0: sessions never age out. */
  readonly sessionSeconds: number;
  readonly maxActiveSessions: number;
}

/** The stored expiry of a session that never ages out (see `NEVER_EXPIRES` in the core). */
export const NEVER_EXPIRES_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

export interface ModelToken {
  readonly expSec: number;
}

export interface ModelSession {
  readonly user: number;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  /** The user's stamp version at login: a newer one ends the session. */
  readonly stampVersion: number;
  revoked: boolean;
  /** Refresh tokens in the order issued; the last one is the live one. */
  readonly refresh: ModelToken[];
  /** Access tokens in the order issued; each lives until its own `exp`. */
  readonly access: ModelToken[];
}

export interface SessionModel {
  readonly settings: ModelSettings;
  nowMs: number;
  /** Current stamp version per user (a password change bumps it). */
  readonly stampVersions: number[];
  readonly sessions: ModelSession[];
}

/** An answer as the model predicts it: 200 (with what it carries), or an error status and code. */
export type Expected = { readonly status: 200 } | { readonly status: number; readonly code: string };

const OK: Expected = { status: 200 };
const fail = (status: number, code: string): Expected => ({ status, code });

export function newModel(settings: ModelSettings, nowMs: number, users: number): SessionModel {
  return { settings, nowMs, stampVersions: Array.from({ length: users }, () => 0), sessions: [] };
}

const nowSec = (model: SessionModel): number => Math.floor(model.nowMs / 1000);

/** Active in the store: not revoked and before its natural end (the stamp is not the store's business). */
export function storeActive(model: SessionModel, session: ModelSession): boolean {
  return !session.revoked && session.expiresAtMs > model.nowMs;
}

/** Login: a new session, then the cap revokes the oldest active ones (the newcomer is the newest). */
export function login(model: SessionModel, user: number): ModelSession {
  const { settings } = model;
  const expiresAtMs = settings.sessionSeconds === 0 ? NEVER_EXPIRES_MS : model.nowMs + settings.sessionSeconds * 1000;
  const iat = nowSec(model);
  const endSec = Math.floor(expiresAtMs / 1000);
  const session: ModelSession = {
    user,
    createdAtMs: model.nowMs,
    expiresAtMs,
    stampVersion: model.stampVersions[user]!,
    revoked: false,
    refresh: [{ expSec: Math.min(iat + settings.refreshSeconds, endSec) }],
    access: [{ expSec: Math.min(iat + settings.accessSeconds, endSec) }],
  };
  model.sessions.push(session);
  const active = model.sessions.filter((s) => s.user === user && storeActive(model, s));
  active.sort((a, b) => a.createdAtMs - b.createdAtMs);
  for (const evicted of active.slice(0, Math.max(0, active.length - settings.maxActiveSessions))) evicted.revoked = true;
  return session;
}

/** POST /auth/refresh/ with the session's refresh token number `index`. */
export function refresh(model: SessionModel, session: ModelSession, index: number): Expected {
  if (session.refresh[index]!.expSec <= nowSec(model)) return fail(401, 'expired_token');
  if (!storeActive(model, session)) return fail(401, 'session_expired');
  if (session.stampVersion !== model.stampVersions[session.user]) {
    session.revoked = true;
    return fail(401, 'session_expired');
  }
  if (index !== session.refresh.length - 1) {
    session.revoked = true;
    return fail(401, 'token_reuse_detected');
  }
  const iat = nowSec(model);
  session.refresh.push({ expSec: iat + model.settings.refreshSeconds });
  session.access.push({ expSec: iat + model.settings.accessSeconds });
  return OK;
}

/** The guard (and the authentication step of every endpoint) with access token number `index`. */
export function authenticate(model: SessionModel, session: ModelSession, index: number): Expected {
  if (session.access[index]!.expSec <= nowSec(model)) return fail(401, 'expired_token');
  if (!storeActive(model, session)) return fail(401, 'session_expired');
  if (session.stampVersion !== model.stampVersions[session.user]) return fail(401, 'session_expired');
  return OK;
}

/** GET /auth/sessions/: the caller's store-active sessions, newest first. */
export function listSessions(model: SessionModel, caller: ModelSession): ModelSession[] {
  return model.sessions.filter((s) => s.user === caller.user && storeActive(model, s)).sort((a, b) => b.createdAtMs - a.createdAtMs);
}

/** DELETE /auth/sessions/{id}/ after authentication: only the caller's own active sessions. */
export function deleteSession(model: SessionModel, caller: ModelSession, target: ModelSession | null): Expected {
  if (target === null || target.user !== caller.user || !storeActive(model, target)) return fail(404, 'session_not_found');
  target.revoked = true;
  return OK;
}

/** Every store-active session of the user revoked (logout all, invalidate all); returns how many. */
export function expireAllForUser(model: SessionModel, user: number): number {
  let count = 0;
  for (const session of model.sessions) {
    if (session.user === user && storeActive(model, session)) {
      session.revoked = true;
      count += 1;
    }
  }
  return count;
}

/** The host changed the user's password: a new security stamp. */
export function changeStamp(model: SessionModel, user: number): void {
  model.stampVersions[user] = model.stampVersions[user]! + 1;
}

export function describeExpected(expected: Expected): string {
  return 'code' in expected ? `${expected.status} ${expected.code}` : `${expected.status}`;
}
