import { metrics, trace } from '@opentelemetry/api';
import { createPasswordAuthenticator, createSessauth, MemorySessionStore, type SessauthInstrumentation } from '@sessauth/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessauthOpenTelemetry } from '../src/index.js';
import { counterValue, createTelemetryHarness, type TelemetryHarness, useContextManager } from './support/telemetry-harness.js';

const user = { id: 'u-1', username: 'opt-in-user' };
const users = {
  findById: async (id: string) => (id === user.id ? user : null),
  idOf: (u: typeof user) => u.id,
  securityStamp: () => 'stamp-1',
  findByUsername: async (name: string) => (name === user.username ? { user, passwordHash: 'pw' } : null),
};
/** Plain text: these tests are about what is observed, not about hashing. */
const plainHasher = { hash: async (p: string) => p, verify: async (h: string, p: string) => h === p };

async function engine(instrumentation?: SessauthInstrumentation) {
  return createSessauth({
    options: {
      secretKey: 'opt-in-secret-0123456789abcdefghijklmnopqrstuvwxyz',
      issuer: 'https://issuer.test',
      audience: 'opt-in',
      loginThrottleRate: '0',
    },
    store: new MemorySessionStore(),
    users,
    authenticator: createPasswordAuthenticator({ users, hasher: plainHasher }),
    allowWeakPasswordHasher: true,
    ...(instrumentation === undefined ? {} : { instrumentation }),
  });
}

/** One login through `handle` and one guard call with its access token. */
async function loginAndGuard(auth: Awaited<ReturnType<typeof engine>>): Promise<void> {
  const body = new TextEncoder().encode(JSON.stringify({ username: user.username, password: 'pw' }));
  const response = await auth.handle({
    method: 'POST',
    path: '/auth/login/',
    query: '',
    peerAddress: '127.0.0.1',
    secure: false,
    headers: new Map([['content-type', ['application/json']]]),
    readBody: async () => body,
  });
  expect(response?.status).toBe(200);
  const { access_token: token } = JSON.parse(response!.body!) as { access_token: string };
  await auth.authenticate({ authorization: [`Bearer ${token}`] });
  await auth.eventsSettled();
}

describe('instrumentation is opt-in', () => {
  let harness: TelemetryHarness;
  let releaseContext: () => void;
  beforeEach(() => {
    releaseContext = useContextManager();
    harness = createTelemetryHarness();
    // A host that runs the OpenTelemetry SDK registers its providers globally.
    trace.setGlobalTracerProvider(harness.tracerProvider);
    metrics.setGlobalMeterProvider(harness.meterProvider);
  });
  afterEach(async () => {
    trace.disable();
    metrics.disable();
    releaseContext();
    await harness.shutdown();
  });

  it('records nothing for an engine created without the option, even with the SDK registered', async () => {
    await loginAndGuard(await engine());
    expect(harness.spans()).toEqual([]);
    expect(await harness.metrics()).toEqual([]);
  });

  it('records through the global providers when given no provider', async () => {
    await loginAndGuard(await engine(sessauthOpenTelemetry()));
    expect(harness.spans().map((span) => span.name)).toEqual(
      expect.arrayContaining(['sessauth.login', 'sessauth.guard', 'sessauth.store.createSession', 'sessauth.store.findSession']),
    );
    expect(counterValue(await harness.metrics(), 'sessauth.logins', { 'sessauth.result': 'ok' })).toBe(1);
  });

  it('names the route template each path matched, the two paths of the JWK set apart', async () => {
    const auth = await engine(sessauthOpenTelemetry());
    for (const path of ['/auth/jwks.json', '/auth/.well-known/jwks.json/']) {
      const response = await auth.handle({
        method: 'GET',
        path,
        query: '',
        peerAddress: '127.0.0.1',
        secure: false,
        headers: new Map(),
        readBody: async () => new Uint8Array(),
      });
      // An HMAC engine publishes no key set: 404, still an answer of the route.
      expect(response?.status).toBe(404);
    }
    const spans = harness.spans().filter((span) => span.name === 'sessauth.jwks');
    expect(spans.map((span) => span.attributes['http.route'])).toEqual(['/auth/jwks.json/', '/auth/.well-known/jwks.json/']);
    expect(spans.map((span) => span.attributes['error.type'])).toEqual(['not_found', 'not_found']);
  });
});
