import * as model from './reference-model.js';
import type { SessionModel } from './reference-model.js';
import { AuthenticatedCommand, checkStore, SessionCommand, type Command, type pick } from './command-kit.js';
import { expectAnswer, realBearer, realGuard, realLogin, realRefresh, type SessionSystem } from './session-system.js';

export class Login implements Command {
  constructor(private readonly user: number) {}
  check(): boolean {
    return true;
  }
  async run(m: SessionModel, r: SessionSystem): Promise<void> {
    // One millisecond per login, in both: every session has its own createdAt.
    m.nowMs += 1;
    r.clock.advanceMs(1);
    expectAnswer(this.toString(), { status: 200 }, await realLogin(r, this.user));
    model.login(m, this.user);
    await checkStore(m, r);
  }
  toString(): string {
    return `login(user ${this.user})`;
  }
}

export class Refresh extends SessionCommand {
  protected async step(m: SessionModel, r: SessionSystem, { ms, rs, index }: ReturnType<typeof pick>): Promise<void> {
    const latest = ms.refresh.length - 1;
    expectAnswer(`refresh #${index}`, model.refresh(m, ms, latest), await realRefresh(r, rs, rs.refresh[latest]!));
  }
  toString(): string {
    return `refresh(${this.ref})`;
  }
}

/** A consumed refresh token presented again: reuse, which revokes the whole session. */
export class Replay extends SessionCommand {
  constructor(
    ref: number,
    private readonly tokenRef: number,
  ) {
    super(ref);
  }
  override check(m: Readonly<SessionModel>): boolean {
    return m.sessions.length > 0 && m.sessions[this.ref % m.sessions.length]!.refresh.length > 1;
  }
  protected async step(m: SessionModel, r: SessionSystem, { ms, rs, index }: ReturnType<typeof pick>): Promise<void> {
    const old = this.tokenRef % (ms.refresh.length - 1);
    expectAnswer(`replay #${index} token ${old}`, model.refresh(m, ms, old), await realRefresh(r, rs, rs.refresh[old]!));
  }
  toString(): string {
    return `replay(${this.ref}, token ${this.tokenRef})`;
  }
}

/** The guard of a host route with one of the session's access tokens (old ones live until their exp). */
export class Guard extends SessionCommand {
  constructor(
    ref: number,
    private readonly tokenRef: number,
  ) {
    super(ref);
  }
  protected async step(m: SessionModel, r: SessionSystem, { ms, rs, index }: ReturnType<typeof pick>): Promise<void> {
    const which = this.tokenRef % ms.access.length;
    const answer = await realGuard(r, rs.access[which]!);
    expectAnswer(`guard #${index} token ${which}`, model.authenticate(m, ms, which), answer);
    if (answer.status === 200 && answer.sid !== rs.sid) throw new Error(`guard #${index} authenticated session ${answer.sid}`);
  }
  toString(): string {
    return `guard(${this.ref}, token ${this.tokenRef})`;
  }
}

/** A token of the other kind: refresh with an access token (400), the guard with a refresh token (401). */
export class CrossKind extends SessionCommand {
  constructor(
    ref: number,
    private readonly where: 'refresh' | 'guard',
  ) {
    super(ref);
  }
  protected async step(_m: SessionModel, r: SessionSystem, { rs, index }: ReturnType<typeof pick>): Promise<void> {
    const answer = this.where === 'refresh' ? await realRefresh(r, rs, rs.access.at(-1)!) : await realGuard(r, rs.refresh.at(-1)!);
    expectAnswer(`${this.toString()} on #${index}`, { status: this.where === 'refresh' ? 400 : 401, code: 'invalid_token_type' }, answer);
  }
  toString(): string {
    return `crossKind(${this.ref}, ${this.where})`;
  }
}

export class ListSessions extends AuthenticatedCommand {
  protected async call(m: SessionModel, r: SessionSystem, { ms, rs, index }: ReturnType<typeof pick>, refused: model.Expected | null): Promise<void> {
    const answer = await realBearer(r, 'GET', '/sessions/', rs.access.at(-1)!);
    expectAnswer(`list by #${index}`, refused ?? { status: 200 }, answer);
    if (refused !== null) return;
    const expected = model.listSessions(m, ms).map((s) => ({ id: r.sessions[m.sessions.indexOf(s)]!.sid, is_current: s === ms }));
    const actual = (answer.json as Array<{ id: string; is_current: boolean }>).map(({ id, is_current }) => ({ id, is_current }));
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      throw new Error(`list by #${index}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
  toString(): string {
    return `list(${this.ref})`;
  }
}

/** DELETE of a session (any user's), of an unknown id, or of a malformed one. */
export class DeleteSession extends AuthenticatedCommand {
  constructor(
    ref: number,
    private readonly target: number | 'unknown' | 'malformed',
  ) {
    super(ref);
  }
  protected async call(m: SessionModel, r: SessionSystem, { ms, rs, index }: ReturnType<typeof pick>, refused: model.Expected | null): Promise<void> {
    const targetIndex = typeof this.target === 'number' ? this.target % m.sessions.length : null;
    const id = targetIndex !== null ? r.sessions[targetIndex]!.sid : this.target === 'unknown' ? 'AAAAAAAAAAAAAAAAAAAAAA' : '%ZZ..%2e';
    const answer = await realBearer(r, 'DELETE', `/sessions/${id}/`, rs.access.at(-1)!);
    const expected = refused ?? model.deleteSession(m, ms, targetIndex === null ? null : m.sessions[targetIndex]!);
    expectAnswer(`delete ${this.target} by #${index}`, expected, answer);
  }
  toString(): string {
    return `delete(${this.ref}, ${this.target})`;
  }
}

export class Logout extends AuthenticatedCommand {
  constructor(
    ref: number,
    private readonly all: boolean,
  ) {
    super(ref);
  }
  protected async call(m: SessionModel, r: SessionSystem, { ms, rs, index }: ReturnType<typeof pick>, refused: model.Expected | null): Promise<void> {
    const answer = await realBearer(r, 'POST', this.all ? '/logout/all/' : '/logout/', rs.access.at(-1)!);
    expectAnswer(`${this.toString()} by #${index}`, refused ?? { status: 200 }, answer);
    if (refused !== null) return;
    if (this.all) model.expireAllForUser(m, ms.user);
    else ms.revoked = true;
  }
  toString(): string {
    return `${this.all ? 'logoutAll' : 'logout'}(${this.ref})`;
  }
}
