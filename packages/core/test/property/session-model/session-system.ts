import { SessauthError } from '../../../src/errors/sessauth-error.js';
import type { Sessauth } from '../../../src/engine/sessauth.js';
import type { SessionStore } from '../../../src/store/store-port.js';
import { answerOf, bearerRequest, jsonPost, type Answer } from '../kit/engine-requests.js';
import { createPropertyEngine, ManualClock, type PropertyUser } from '../kit/property-engine.js';
import { describeExpected, type Expected, type ModelSettings } from './reference-model.js';

/** One real session as the client side knows it: its id and every token it was handed. */
export interface RealSession {
  readonly sid: string;
  readonly refresh: string[];
  readonly access: string[];
}

/**
 * The system under test: the real engine over a real store, a clock the test moves,
 * the host's users (their stamps change on a password change), and the tokens every
 * login and refresh handed out, in the order the model numbers them.
 */
export interface SessionSystem {
  readonly auth: Sessauth<PropertyUser>;
  readonly store: SessionStore;
  readonly clock: ManualClock;
  readonly users: PropertyUser[];
  readonly sessions: RealSession[];
}

let systems = 0;

/** A fresh engine and users; the users' ids are new each time, so runs may share one database. */
export async function newSessionSystem(store: SessionStore, settings: ModelSettings, startMs: number): Promise<SessionSystem> {
  const run = `${process.pid}-${(systems += 1)}-${Math.random().toString(36).slice(2, 8)}`;
  const users: PropertyUser[] = ['alice', 'bob'].map((name) => ({
    id: `${name}-${run}`,
    username: `${name}-${run}`,
    password: `${name}-pw`,
    stamp: `${name}-stamp-0`,
  }));
  const clock = new ManualClock(startMs);
  const auth = await createPropertyEngine({
    store,
    clock,
    users,
    options: {
      accessTokenExpireSeconds: settings.accessSeconds,
      refreshTokenExpireSeconds: settings.refreshSeconds,
      sessionExpireSeconds: settings.sessionSeconds,
      maxActiveSessions: settings.maxActiveSessions,
    },
  });
  return { auth, store, clock, users, sessions: [] };
}

/** The `sid` claim of a token we were just handed (the payload is ours; no need to verify here). */
function sidOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid?: unknown };
  if (typeof payload.sid !== 'string') throw new Error('a token without a sid');
  return payload.sid;
}

function tokensOf(answer: Answer): { access: string; refresh: string } {
  const body = answer.json as { access_token?: unknown; refresh_token?: unknown };
  if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string') throw new Error('a 200 without both tokens');
  return { access: body.access_token, refresh: body.refresh_token };
}

export async function realLogin(system: SessionSystem, user: number): Promise<Answer> {
  const { username, password } = system.users[user]!;
  const answer = answerOf(await system.auth.handle(jsonPost(`${system.auth.options.prefix}/login/`, { username, password })));
  if (answer.status === 200) {
    const { access, refresh } = tokensOf(answer);
    system.sessions.push({ sid: sidOf(access), refresh: [refresh], access: [access] });
  }
  return answer;
}

export async function realRefresh(system: SessionSystem, session: RealSession, token: string): Promise<Answer> {
  const answer = answerOf(await system.auth.handle(jsonPost(`${system.auth.options.prefix}/refresh/`, { refresh_token: token })));
  if (answer.status === 200) {
    const { access, refresh } = tokensOf(answer);
    session.refresh.push(refresh);
    session.access.push(access);
  }
  return answer;
}

/** The guard of a host route; its throw becomes the answer the adapter would send. */
export async function realGuard(system: SessionSystem, token: string): Promise<Answer & { sid?: string }> {
  try {
    const context = await system.auth.authenticate({ authorization: [`Bearer ${token}`] });
    return { status: 200, code: undefined, json: null, sid: context.session.id };
  } catch (error) {
    if (!(error instanceof SessauthError)) throw error;
    return answerOf(system.auth.errorResponse(error));
  }
}

export async function realBearer(system: SessionSystem, method: string, path: string, token: string): Promise<Answer> {
  return answerOf(await system.auth.handle(bearerRequest(method, `${system.auth.options.prefix}${path}`, token)));
}

/** How often each expected answer was checked, so a test can prove its runs reached them. */
export const answersChecked = new Map<string, number>();

/** Throws unless the real answer is the model's. */
export function expectAnswer(what: string, expected: Expected, actual: Answer): void {
  const key = describeExpected(expected);
  answersChecked.set(key, (answersChecked.get(key) ?? 0) + 1);
  const same = actual.status === expected.status && ('code' in expected ? actual.code === expected.code : actual.code === undefined);
  if (!same) throw new Error(`${what}: the model expects ${describeExpected(expected)}, the engine answered ${actual.status} ${actual.code ?? ''}`);
}
