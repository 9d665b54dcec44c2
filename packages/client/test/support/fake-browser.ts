import { createSessauth, MemorySessionStore, SessauthError, type Sessauth } from '@sessauth/core';
import type { SessauthRequest, SessauthResponse } from '@sessauth/core/adapter';
import { CookieJar, parseSetCookie } from '@sessauth/conformance';

export interface DemoUser {
  readonly id: string;
  readonly username: string;
}

const ALICE: DemoUser = { id: 'u-alice', username: 'alice' };

/** The server side, shared by every browser (device) of a test. */
interface FakeServer {
  auth: Sessauth<DemoUser>;
  readonly store: MemorySessionStore;
  readonly warnings: string[];
  readonly requests: string[];
  offsetMs: number;
}

/** What the fake network does with one refresh: answer it, or lose its answer after the server acted. */
export type RefreshFate = 'deliver' | 'lose-response';

/**
 * A browser's network stack wired to the real sessauth engine in this process: a
 * `fetch` with a cookie jar (shared by every "tab" of this browser, as a real one
 * is) in front of `createSessauth` over the in-memory store, plus a protected
 * `GET /me`. The engine's clock and the clients' clock move together (`advance`).
 * Nothing of the client is mocked: it talks HTTP semantics to the real endpoints.
 */
export class FakeBrowser {
  readonly jar = new CookieJar();
  /** Decides the fate of each refresh of this browser (default: delivered). */
  refreshFate: () => RefreshFate = () => 'deliver';
  /** Tabs of one browser share BroadcastChannels; two browsers (devices) must not. */
  readonly deviceId = Math.random().toString(36).slice(2);

  private constructor(
    readonly origin: string,
    private readonly server: FakeServer,
  ) {}

  static async start(options: { transport: 'cookie' | 'body' | 'both'; accessSeconds?: number }): Promise<FakeBrowser> {
    const server: FakeServer = { warnings: [], requests: [], store: new MemorySessionStore(), offsetMs: 0, auth: null! };
    server.auth = await createSessauth<DemoUser>({
      options: {
        secretKey: 'client-test-secret-0123456789-abcdefghijklmnop',
        issuer: 'http://test',
        audience: 'client-test',
        accessTokenExpireSeconds: options.accessSeconds ?? 60,
        refreshTokenTransport: options.transport,
        loginThrottleRate: '0',
        refreshThrottleRate: '0',
      },
      store: server.store,
      users: {
        findById: async (id) => (id === ALICE.id ? ALICE : null),
        idOf: (u) => u.id,
        securityStamp: () => 'stamp-1',
        usernameOf: (u) => u.username,
      },
      authenticator: async (body) => {
        if (body.username === 'alice' && body.password === 'pw') return ALICE;
        throw new SessauthError('invalid_credentials');
      },
      clock: { now: () => new Date(Date.now() + server.offsetMs) },
      logger: { warn: (event) => server.warnings.push(event), error: (event) => server.warnings.push(event) },
    });
    return new FakeBrowser(`http://app-${Math.random().toString(36).slice(2)}.test`, server);
  }

  /** Another browser (its own cookie jar): a second device of the same server. */
  sibling(): FakeBrowser {
    return new FakeBrowser(this.origin, this.server);
  }

  get store(): MemorySessionStore {
    return this.server.store;
  }

  /** Every request path the server saw (from any browser), in order. */
  get requests(): readonly string[] {
    return this.server.requests;
  }

  /** The time both the server and the clients read. */
  now(): number {
    return Date.now() + this.server.offsetMs;
  }

  advance(ms: number): void {
    this.server.offsetMs += ms;
  }

  count(path: string): number {
    return this.requests.filter((p) => p === path).length;
  }

  get reuseDetected(): number {
    return this.server.warnings.filter((w) => w === 'token_reuse_detected').length;
  }

  /**
   * Another device presents this browser's refresh cookie (a stolen copy), and the
   * answer goes to that device, not into this jar. Returns the status.
   */
  async refreshFromElsewhere(): Promise<number> {
    const refresh = this.jar.get('refresh_token');
    const csrf = this.jar.get('csrftoken');
    const headers = new Map<string, string[]>([
      ['content-type', ['application/json']],
      ['cookie', [`refresh_token=${refresh}; csrftoken=${csrf}`]],
      ['x-csrftoken', [csrf ?? '']],
    ]);
    const body = new TextEncoder().encode('{}');
    const response = await this.serve({
      method: 'POST',
      path: '/auth/refresh/',
      headers,
      peerAddress: '127.0.0.2',
      secure: false,
      readBody: async () => body,
    });
    return response.status;
  }

  /** The `fetch` of this browser (give it to every tab's client). */
  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== this.origin) throw new TypeError('fetch failed: unknown host');
    // A little latency, so that concurrent requests really overlap.
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 4));
    this.server.requests.push(url.pathname);
    const fate = url.pathname.endsWith('/refresh/') ? this.refreshFate() : 'deliver';
    const response = await this.serve(await this.toSessauthRequest(request, url));
    // The answer takes time to travel back too: a request sent meanwhile still carries the old cookie.
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 4));
    if (fate === 'lose-response') throw new TypeError('fetch failed: connection reset');
    this.jar.store(response.setCookies.map(parseSetCookie), url.pathname);
    return new Response(response.body, { status: response.status, headers: response.headers });
  };

  private async serve(request: SessauthRequest): Promise<SessauthResponse> {
    const { auth } = this.server;
    const handled = await auth.handle(request);
    if (handled !== null) return handled;
    if (request.path !== '/me' && request.path !== '/me/fresh') return { status: 404, headers: {}, setCookies: [], body: null };
    try {
      const context = await auth.authenticate({ authorization: request.headers.get('authorization') });
      // GET /me/fresh: a route under RFC 9470's freshness rule (a sign-in of the last 5 minutes).
      if (request.path === '/me/fresh') auth.assertFresh(context, { maxAgeSeconds: 300 });
      const { user, session } = context;
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        setCookies: [],
        body: JSON.stringify({ user: user.username, session: session.id }),
      };
    } catch (error) {
      return auth.errorResponse(error);
    }
  }

  private async toSessauthRequest(request: Request, url: URL): Promise<SessauthRequest> {
    const headers = new Map<string, string[]>();
    request.headers.forEach((value, name) => headers.set(name, [value]));
    const cookie = this.jar.headerFor(url.pathname);
    if (cookie !== undefined) headers.set('cookie', [cookie]);
    const bytes = new Uint8Array(await request.arrayBuffer());
    return {
      method: request.method,
      path: url.pathname,
      query: url.search.slice(1),
      headers,
      peerAddress: '127.0.0.1',
      secure: false,
      readBody: async (maxBytes) => {
        if (bytes.length > maxBytes) throw new SessauthError('payload_too_large');
        return bytes;
      },
    };
  }
}
