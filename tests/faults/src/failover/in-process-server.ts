import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { createSessauth, SessauthError, type Clock, type Logger, type LogFields, type SessauthOptions, type SessionStore } from '@sessauth/core';
import { authorizationValues, toSessauthRequest, writeSessauthResponse } from '@sessauth/node-http';
import type { DemoCredentials, ExampleServer } from '../example-server.js';

interface LoadUser {
  readonly id: string;
  readonly username: string;
}

/** The in-process server: an `ExampleServer` (the scenario's view) whose log lines are kept. */
export interface InProcessServer extends ExampleServer {
  /** Every line the engine and the store logged, as JSON. */
  readonly output: string[];
  /** A logger that writes to `output`, for the store. */
  readonly logger: Logger;
}

/** A logger that keeps each line (event and fields) as JSON. */
export function collectingLogger(output: string[]): Logger {
  const line =
    (level: string) =>
    (event: string, fields?: LogFields): void =>
      void output.push(JSON.stringify({ level, event, ...fields }));
  return { warn: line('warn'), error: line('error'), info: line('info') };
}

/**
 * The real engine over `store`, mounted on node:http on 127.0.0.1 in this process (so the store
 * can be built with any option), with the routes the fault suite's clients call: the sessauth
 * endpoints and `GET /me` behind the guard. Passwords are compared in constant time and not
 * hashed: the load measures the store, not argon2. Throttles off; loopback is a trusted proxy, so
 * each virtual client has its own address.
 */
export interface InProcessServerOptions {
  readonly store: SessionStore;
  readonly users: readonly DemoCredentials[];
  /** Shared by every instance of one deployment, so each accepts the others' tokens. */
  readonly secret: string;
  /** Where the log lines go (one JSON line each). */
  readonly output?: string[];
  /** This instance's clock (a skewed one in the clock-skew test). @default systemClock */
  readonly clock?: Clock;
  /** More settings (for example `leewaySeconds`). */
  readonly options?: Partial<SessauthOptions>;
}

export async function startInProcessServer(config: InProcessServerOptions): Promise<InProcessServer> {
  const { store, users, secret, output = [] } = config;
  const logger = collectingLogger(output);
  const byName = new Map(
    users.map((user, i) => [user.username, { user: { id: `failover-user-${i}`, username: user.username }, password: user.password }]),
  );
  const byId = new Map([...byName.values()].map((entry) => [entry.user.id, entry.user]));
  const auth = await createSessauth<LoadUser>({
    options: {
      secretKey: secret,
      issuer: 'https://failover.example',
      audience: 'failover',
      refreshTokenTransport: 'body',
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      trustedProxyCidrs: ['127.0.0.1/32'],
      ...config.options,
    },
    ...(config.clock === undefined ? {} : { clock: config.clock }),
    store,
    logger,
    users: {
      findById: async (id) => byId.get(id) ?? null,
      idOf: (user) => user.id,
      securityStamp: (user) => `stamp-${user.id}`,
    },
    authenticator: async (body) => {
      const entry = byName.get(String(body.username));
      const given = Buffer.from(String(body.password));
      const expected = Buffer.from(entry?.password ?? '');
      if (entry === undefined || given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new SessauthError('invalid_credentials');
      return entry.user;
    },
  });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const request = toSessauthRequest(req);
      const handled = await auth.handle(request);
      if (handled !== null) return writeSessauthResponse(res, handled);
      if (req.method === 'GET' && request.path === '/me') {
        try {
          const { user, session } = await auth.authenticate({ authorization: authorizationValues(req) });
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ user: { id: user.id }, session: { id: session.id } }));
        } catch (error) {
          writeSessauthResponse(res, auth.errorResponse(error));
        }
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error_code":"not_found"}');
    })().catch((error: unknown) => {
      output.push(JSON.stringify({ level: 'error', event: 'test_server_failure', reason: String(error) }));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: process.pid,
    output,
    logger,
    // In this process: it cannot exit without ending the test run.
    exit: () => null,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
