import type { DemoCredentials } from './example-server.js';
import { record, type History, type IssuedTokens, type OperationKind } from './history.js';
import { send, type Answer, type RequestSpec } from './wire.js';

/** How often each operation is chosen while a client holds a session. */
export interface OperationMix {
  readonly me: number;
  readonly refresh: number;
  readonly list: number;
  readonly logout: number;
  readonly replay: number;
}

/** Mostly reads and refreshes; logouts and replays end a session, and every new one is a login (an argon2 hash). */
export const DEFAULT_MIX: OperationMix = { me: 0.5, refresh: 0.3, list: 0.12, logout: 0.04, replay: 0.04 };

export interface ClientTarget {
  readonly baseUrl: string;
  /** The client stops waiting after this long (the checker's bound is much tighter). */
  readonly limitMs: number;
}

/**
 * One user's client, as a correct client behaves: it never retries a refresh or a
 * logout whose answer was lost or was 503 (the outcome is unknown; it signs in
 * again), and it presents a consumed refresh token only on purpose (`replay`), to
 * prove the server refuses it. After an acknowledged revocation it probes the
 * dead session's access token once.
 */
export class VirtualClient {
  #tokens: IssuedTokens | null = null;
  /** A refresh token of the current session that already refreshed once. */
  #consumed: string | null = null;
  /** No write of the current session has been left without an answer. */
  #clean = false;

  constructor(
    readonly id: number,
    readonly user: DemoCredentials,
    readonly ip: string,
    private readonly mix: OperationMix = DEFAULT_MIX,
  ) {}

  /** Where the requests of the scenario under way are recorded. */
  history: History | null = null;

  /** The session the client holds and believes alive, for the checks after the heal. */
  get liveTokens(): IssuedTokens | null {
    return this.#clean ? this.#tokens : null;
  }

  /** One request: a login when the client holds no session, else an operation drawn from the mix. */
  step(target: ClientTarget): Promise<void> {
    return this.#tokens === null ? this.#login(target) : this.#operate(target, this.#pick());
  }

  /** After a scenario: a session the client believes alive must refresh (and the client keeps the new pair). */
  async confirmAlive(target: ClientTarget): Promise<void> {
    if (this.liveTokens !== null) await this.#operate(target, 'refresh');
  }

  async #operate(target: ClientTarget, pick: keyof OperationMix): Promise<void> {
    const tokens = this.#tokens;
    if (tokens === null) return;
    if (pick === 'me' || pick === 'list') {
      const answer = await this.#call(
        target,
        pick,
        { method: 'GET', path: pick === 'me' ? '/me' : '/auth/sessions/', access: tokens.access },
        tokens,
      );
      if (answer.status === 401) this.#drop();
    } else if (pick === 'refresh') {
      const answer = await this.#call(
        target,
        'refresh',
        { method: 'POST', path: '/auth/refresh/', json: { refresh_token: tokens.refresh } },
        tokens,
        tokens.refresh,
      );
      if (answer.issued !== null) {
        this.#consumed = tokens.refresh;
        this.#tokens = answer.issued;
      } else {
        this.#drop();
      }
    } else if (pick === 'logout') {
      const answer = await this.#call(target, 'logout', { method: 'POST', path: '/auth/logout/', json: {}, access: tokens.access }, tokens);
      if (answer.status === 200) await this.#probe(target, tokens);
      this.#drop();
    } else {
      const replayed = this.#consumed;
      if (replayed === null) return;
      const answer = await this.#call(
        target,
        'replay',
        { method: 'POST', path: '/auth/refresh/', json: { refresh_token: replayed } },
        tokens,
        replayed,
      );
      if (answer.status === 401 && answer.code === 'token_reuse_detected') await this.#probe(target, tokens);
      this.#drop();
    }
  }

  async #login(target: ClientTarget): Promise<void> {
    const answer = await this.#call(
      target,
      'login',
      {
        method: 'POST',
        path: '/auth/login/',
        json: { username: this.user.username, password: this.user.password },
      },
      null,
    );
    if (answer.issued !== null) {
      this.#tokens = answer.issued;
      this.#consumed = null;
      this.#clean = true;
    }
  }

  /** The revoked session's access token: the server must refuse it. */
  async #probe(target: ClientTarget, tokens: IssuedTokens): Promise<void> {
    this.#clean = false;
    await this.#call(target, 'probe', { method: 'GET', path: '/me', access: tokens.access }, tokens);
  }

  #pick(): keyof OperationMix {
    let roll = Math.random();
    for (const kind of ['me', 'refresh', 'list', 'logout', 'replay'] as const) {
      roll -= this.mix[kind];
      if (roll < 0) return kind === 'replay' && this.#consumed === null ? 'me' : kind;
    }
    return 'me';
  }

  #drop(): void {
    this.#tokens = null;
    this.#consumed = null;
    this.#clean = false;
  }

  async #call(
    target: ClientTarget,
    kind: OperationKind,
    spec: Omit<RequestSpec, 'ip'>,
    tokens: IssuedTokens | null,
    presented: string | null = null,
  ): Promise<Answer> {
    const expectLive = this.#clean && kind !== 'replay' && kind !== 'probe' && tokens !== null;
    const answer = await send(target.baseUrl, { ...spec, ip: this.ip }, target.limitMs);
    if (this.history !== null) record(this.history, { client: this.id, kind, sid: tokens?.sid ?? null, presented, expectLive }, answer);
    // A write whose outcome is unknown leaves the session in an unknown state.
    if (answer.status !== 200 && answer.status !== 401 && (kind === 'refresh' || kind === 'logout')) this.#clean = false;
    return answer;
  }
}
